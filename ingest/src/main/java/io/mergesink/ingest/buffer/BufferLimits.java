package io.mergesink.ingest.buffer;

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
}
