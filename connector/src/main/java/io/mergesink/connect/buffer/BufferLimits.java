package io.mergesink.connect.buffer;

import io.mergesink.connect.config.MergeSinkConfig;

/**
 * When a buffer asks to be committed early ({@code buffer.max.records}, {@code buffer.max.bytes}).
 */
public record BufferLimits(long maxChanges, long maxBytes) {
  public BufferLimits {
    if (maxChanges < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("buffer limits must be positive, found " + maxChanges + " changes and "
          + maxBytes + " bytes");
    }
  }

  public static BufferLimits from(MergeSinkConfig config) {
    return new BufferLimits(config.bufferMaxRecords(), config.bufferMaxBytes());
  }
}
