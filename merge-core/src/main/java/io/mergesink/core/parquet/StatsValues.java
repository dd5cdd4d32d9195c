package io.mergesink.core.parquet;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Text forms of min/max values in Delta's statistics JSON: dates as {@code yyyy-MM-dd},
 * timestamps with millisecond precision ({@code 2026-01-01T00:00:00.000Z}, no zone for
 * timestamp_ntz), strings limited to a prefix. Each method returns null when no correct bound
 * can be written (a year outside 1..9999, a string upper bound that would need truncation).
 */
final class StatsValues {
  /** Delta's {@code dataSkippingStringPrefixLength} default: code points kept of a string bound. */
  static final int STRING_PREFIX_LENGTH = 32;

  private static final long MICROS_PER_MILLI = 1_000L;
  private static final long MILLIS_PER_SECOND = 1_000L;
  private static final int NANOS_PER_MILLI = 1_000_000;
  private static final int MIN_YEAR = 1;
  private static final int MAX_YEAR = 9999;
  private static final DateTimeFormatter TIMESTAMP_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS");
  private static final String UTC_SUFFIX = "Z";

  private StatsValues() {}

  static String date(int epochDay) {
    LocalDate date = LocalDate.ofEpochDay(epochDay);
    return inRange(date.getYear()) ? date.toString() : null;
  }

  /** The timestamp cut to milliseconds, rounding towards the past: a lower bound. */
  static String timestampFloor(long micros, boolean utc) {
    return timestampMillis(Math.floorDiv(micros, MICROS_PER_MILLI), utc);
  }

  /** The timestamp rounded up to the next millisecond when it has sub-millisecond digits: an upper bound. */
  static String timestampCeiling(long micros, boolean utc) {
    return timestampMillis(-Math.floorDiv(-micros, MICROS_PER_MILLI), utc);
  }

  private static String timestampMillis(long millis, boolean utc) {
    long seconds = Math.floorDiv(millis, MILLIS_PER_SECOND);
    int nanos = (int) Math.floorMod(millis, MILLIS_PER_SECOND) * NANOS_PER_MILLI;
    LocalDateTime time;
    try {
      time = LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
    } catch (java.time.DateTimeException e) {
      return null;
    }
    if (!inRange(time.getYear())) {
      return null;
    }
    String text = TIMESTAMP_MILLIS.format(time);
    return utc ? text + UTC_SUFFIX : text;
  }

  private static boolean inRange(int year) {
    return year >= MIN_YEAR && year <= MAX_YEAR;
  }

  /** The string, or its first {@value #STRING_PREFIX_LENGTH} code points: never greater than it. */
  static String stringLowerBound(String value) {
    if (value.codePointCount(0, value.length()) <= STRING_PREFIX_LENGTH) {
      return value;
    }
    return value.substring(0, value.offsetByCodePoints(0, STRING_PREFIX_LENGTH));
  }

  /** The string when it is short enough to be written whole, else null. */
  static String stringUpperBound(String value) {
    return value.codePointCount(0, value.length()) <= STRING_PREFIX_LENGTH ? value : null;
  }

  /**
   * Compares by Unicode code point, which is the order of the strings' UTF-8 bytes (Delta's
   * order), unlike {@link String#compareTo} which compares UTF-16 units.
   */
  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
