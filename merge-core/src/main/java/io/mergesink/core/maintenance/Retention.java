package io.mergesink.core.maintenance;

import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.TombstoneRetention;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The retention periods of a table, from its Delta properties (Spark calendar intervals such as
 * {@code interval 30 days}):
 * <ul>
 *   <li>{@value #LOG_RETENTION} (default 30 days): how long log files are kept;
 *   <li>{@code delta.deletedFileRetentionDuration} (default 1 week): how long removed data and DV
 *       files are kept, for vacuum.
 * </ul>
 */
public final class Retention {
  public static final String LOG_RETENTION = "delta.logRetentionDuration";
  public static final String DEFAULT_LOG_RETENTION = "interval 30 days";
  private static final Pattern INTERVAL = Pattern.compile("\\s*interval\\s+(\\d+)\\s+(\\w+?)s?\\s*", Pattern.CASE_INSENSITIVE);
  private static final long DAYS_PER_WEEK = 7;
  private static final Map<String, Long> UNIT_MILLIS = Map.of(
      "millisecond", 1L,
      "second", TimeUnit.SECONDS.toMillis(1),
      "minute", TimeUnit.MINUTES.toMillis(1),
      "hour", TimeUnit.HOURS.toMillis(1),
      "day", TimeUnit.DAYS.toMillis(1),
      "week", TimeUnit.DAYS.toMillis(DAYS_PER_WEEK));

  private Retention() {}

  /**
   * How long log files of a table with this metadata are kept.
   *
   * @throws IllegalArgumentException when the property is not an interval of one unit
   */
  public static Duration log(Metadata metadata) {
    String value = metadata.configuration().getOrDefault(LOG_RETENTION, DEFAULT_LOG_RETENTION);
    Matcher m = INTERVAL.matcher(value);
    Long unit = m.matches() ? UNIT_MILLIS.get(m.group(2).toLowerCase(Locale.ROOT)) : null;
    if (unit == null) {
      throw new IllegalArgumentException("table property " + LOG_RETENTION
          + " must look like 'interval <n> <millisecond|second|minute|hour|day|week>', found '" + value + "'");
    }
    return Duration.ofMillis(Math.multiplyExact(Long.parseLong(m.group(1)), unit));
  }

  /** How long removed data and DV files of a table with this metadata are kept (vacuum's default). */
  public static Duration deletedFiles(Metadata metadata) {
    return Duration.ofMillis(TombstoneRetention.millis(metadata));
  }
}
