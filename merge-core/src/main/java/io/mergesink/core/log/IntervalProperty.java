package io.mergesink.core.log;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table property holding a Spark calendar interval of one unit, such as {@code interval 1 week}
 * or {@code interval 30 days}: how Delta's retention properties are written.
 */
public final class IntervalProperty {
  private static final Pattern INTERVAL = Pattern.compile("\\s*interval\\s+(\\d+)\\s+(\\w+?)s?\\s*", Pattern.CASE_INSENSITIVE);
  private static final long DAYS_PER_WEEK = 7;
  private static final Map<String, Long> UNIT_MILLIS = Map.of(
      "millisecond", 1L,
      "second", TimeUnit.SECONDS.toMillis(1),
      "minute", TimeUnit.MINUTES.toMillis(1),
      "hour", TimeUnit.HOURS.toMillis(1),
      "day", TimeUnit.DAYS.toMillis(1),
      "week", TimeUnit.DAYS.toMillis(DAYS_PER_WEEK));

  private IntervalProperty() {}

  /**
   * The interval {@code property} of a table with this metadata, {@code defaultValue} when unset.
   *
   * @throws IllegalArgumentException when the value is not an interval of one unit
   */
  public static Duration of(Metadata metadata, String property, String defaultValue) {
    String value = metadata.configuration().getOrDefault(property, defaultValue);
    Matcher m = INTERVAL.matcher(value);
    Long unit = m.matches() ? UNIT_MILLIS.get(m.group(2).toLowerCase(Locale.ROOT)) : null;
    if (unit == null) {
      throw new IllegalArgumentException("table property " + property
          + " must look like 'interval <n> <millisecond|second|minute|hour|day|week>', found '" + value + "'");
    }
    return Duration.ofMillis(Math.multiplyExact(Long.parseLong(m.group(1)), unit));
  }
}
