package io.mergesink.core.log;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a {@code remove} must be kept as a tombstone: the table property
 * {@code delta.deletedFileRetentionDuration} (a Spark calendar interval such as
 * {@code interval 1 week}), one week by default as in Delta.
 */
public final class TombstoneRetention {
  public static final String DEFAULT = "interval 1 week";
  private static final Pattern INTERVAL =
      Pattern.compile("\\s*interval\\s+(\\d+)\\s+(\\w+?)s?\\s*", Pattern.CASE_INSENSITIVE);
  private static final long DAYS_PER_WEEK = 7;
  private static final Map<String, Long> UNIT_MILLIS = Map.of(
      "millisecond", 1L,
      "second", TimeUnit.SECONDS.toMillis(1),
      "minute", TimeUnit.MINUTES.toMillis(1),
      "hour", TimeUnit.HOURS.toMillis(1),
      "day", TimeUnit.DAYS.toMillis(1),
      "week", TimeUnit.DAYS.toMillis(DAYS_PER_WEEK));

  private TombstoneRetention() {}

  /**
   * The retention in milliseconds of a table with this metadata.
   *
   * @throws IllegalArgumentException when the property is not an interval of one unit
   */
  public static long millis(Metadata metadata) {
    String value = metadata.configuration().getOrDefault(Metadata.DELETED_FILE_RETENTION, DEFAULT);
    Matcher m = INTERVAL.matcher(value);
    Long unit = m.matches() ? UNIT_MILLIS.get(m.group(2).toLowerCase(Locale.ROOT)) : null;
    if (unit == null) {
      throw new IllegalArgumentException("table property " + Metadata.DELETED_FILE_RETENTION
          + " must look like 'interval <n> <millisecond|second|minute|hour|day|week>', found '" + value + "'");
    }
    return Math.multiplyExact(Long.parseLong(m.group(1)), unit);
  }
}
