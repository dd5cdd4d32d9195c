package io.mergesink.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes for people: {@code 128 MiB} out, {@code 128MiB}, {@code 128m} or {@code 134217728} in. */
final class Sizes {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};
  private static final int STEP = 1024;
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(?:i?b)?", Pattern.CASE_INSENSITIVE);

  private Sizes() {}

  static String format(long bytes) {
    double value = bytes;
    int unit = 0;
    while (value >= STEP && unit < UNITS.length - 1) {
      value /= STEP;
      unit++;
    }
    return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
  }

  /** Parses a size option; throws {@link IllegalArgumentException} naming the expected form. */
  static long parse(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a size such as 134217728, 128MiB or 512k, found '" + text + "'");
    }
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    int shift = unit.isEmpty() ? 0 : "kmgt".indexOf(unit) + 1;
    return Math.multiplyExact(Long.parseLong(m.group(1)), 1L << (10 * shift));
  }
}
