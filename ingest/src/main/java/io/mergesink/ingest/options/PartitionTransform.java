package io.mergesink.ingest.options;

import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An Iceberg partition transform of a column, as Spark's {@code PARTITIONED BY} writes it:
 * {@code year(c)}, {@code month(c)}, {@code day(c)}, {@code hour(c)}, {@code bucket(N, c)},
 * {@code truncate(W, c)}. Iceberg computes the partition values; MergeSink only names the spec.
 *
 * @param function the transform
 * @param width the bucket count or truncation width of {@code bucket} and {@code truncate}, empty for the others
 */
public record PartitionTransform(Function function, OptionalInt width) {
  /** The functions. */
  public enum Function {
    YEAR, MONTH, DAY, HOUR, BUCKET, TRUNCATE;

    boolean takesWidth() {
      return this == BUCKET || this == TRUNCATE;
    }

    /** The suffix Iceberg gives the partition field's name. */
    String fieldSuffix() {
      return this == TRUNCATE ? "trunc" : name().toLowerCase(Locale.ROOT);
    }
  }

  /** A transform applied to {@code column}. */
  public record Applied(PartitionTransform transform, String column) {}

  public static final String SUPPORTED = "year(c), month(c), day(c), hour(c), bucket(N, c), truncate(W, c)";

  private static final Pattern CALL = Pattern.compile("\\s*(\\w+)\\s*\\(\\s*(?:(\\d+)\\s*,\\s*)?([^,()\\s]+)\\s*\\)\\s*");

  public PartitionTransform {
    if (function.takesWidth() != width.isPresent() || width.isPresent() && width.getAsInt() <= 0) {
      throw new IllegalArgumentException(function.name().toLowerCase(Locale.ROOT)
          + (function.takesWidth() ? " takes a positive width first" : " takes only a column"));
    }
  }

  /**
   * The transform {@code call} ({@code day(created_at)}, {@code bucket(16, id)}) names.
   *
   * @throws IllegalArgumentException it is not one of {@link #SUPPORTED}
   */
  public static Applied parse(String call) {
    Matcher matcher = CALL.matcher(call);
    Function function = matcher.matches() ? function(matcher.group(1)) : null;
    if (function == null) {
      throw new IllegalArgumentException("'" + call.trim() + "' is not a partition transform; transforms are " + SUPPORTED);
    }
    try {
      OptionalInt width = matcher.group(2) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(matcher.group(2)));
      return new Applied(new PartitionTransform(function, width), matcher.group(3));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + call.trim() + "': " + e.getMessage() + "; transforms are " + SUPPORTED, e);
    }
  }

  private static Function function(String name) {
    for (Function function : Function.values()) {
      if (function.name().equalsIgnoreCase(name)) {
        return function;
      }
    }
    return null;
  }

  /** The name Iceberg gives the partition field of this transform of {@code column}. */
  public String fieldName(String column) {
    return column + "_" + function.fieldSuffix();
  }

  /** This transform of {@code column} as {@code partition.fields} writes it. */
  public String call(String column) {
    String name = function.name().toLowerCase(Locale.ROOT);
    return width.isPresent() ? name + "(" + width.getAsInt() + ", " + column + ")" : name + "(" + column + ")";
  }
}
