package io.mergesink.core.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.io.api.Binary;

/**
 * Parquet's deprecated INT96 timestamps, which Spark writes by default: 12 bytes, little-endian,
 * the first 8 the nanoseconds of the day (int64), the last 4 the Julian day number (int32).
 * Values are taken as UTC instants (Spark's behaviour for dates after the 1582 calendar switch).
 */
final class Int96Timestamps {
  static final int INT96_BYTES = 12;
  /** Julian day number of 1970-01-01. */
  private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private Int96Timestamps() {}

  /** Microseconds since the epoch (UTC) of an INT96 value. */
  static long toMicros(Binary value) {
    if (value.length() != INT96_BYTES) {
      throw new IllegalArgumentException("an INT96 timestamp has " + INT96_BYTES + " bytes, found " + value.length());
    }
    ByteBuffer buffer = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    long nanosOfDay = buffer.getLong(buffer.position());
    long julianDay = buffer.getInt(buffer.position() + Long.BYTES);
    return (julianDay - JULIAN_DAY_OF_EPOCH) * MICROS_PER_DAY + Math.floorDiv(nanosOfDay, NANOS_PER_MICRO);
  }
}
