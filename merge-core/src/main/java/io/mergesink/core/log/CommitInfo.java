package io.mergesink.core.log;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code commitInfo} action (PROTOCOL.md, "Commit Provenance Information"): free-form JSON,
 * kept as parsed values (String, Number, Boolean, List, Map, null) in field order.
 */
public record CommitInfo(Map<String, Object> values) implements Action {
  /** How MergeSink names itself in {@code engineInfo}: {@code MergeSink/<version>}. */
  public static final String ENGINE_NAME = "MergeSink";
  private static final String UNKNOWN_VERSION = "dev";
  /** The field of string tags a writer leaves for later readers of the log (as Delta Spark's {@code tags}). */
  public static final String TAGS = "tags";

  public CommitInfo {
    Objects.requireNonNull(values, "values");
    values = Copies.map(values);
  }

  /**
   * The commit info MergeSink writes.
   *
   * @param timestamp commit time in milliseconds since the epoch
   * @param operation e.g. {@code WRITE}, {@code MERGE}, {@code OPTIMIZE}
   */
  public static CommitInfo of(
      long timestamp,
      String operation,
      Map<String, ?> operationParameters,
      boolean isBlindAppend,
      Map<String, ?> operationMetrics) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("timestamp", timestamp);
    values.put("operation", operation);
    values.put("operationParameters", operationParameters == null ? Map.of() : new LinkedHashMap<>(operationParameters));
    values.put("isBlindAppend", isBlindAppend);
    values.put("operationMetrics", operationMetrics == null ? Map.of() : new LinkedHashMap<>(operationMetrics));
    values.put("engineInfo", engineInfo());
    return new CommitInfo(values);
  }

  /** {@code MergeSink/<version>}, the version taken from the jar manifest ({@code dev} outside a jar). */
  public static String engineInfo() {
    String version = CommitInfo.class.getPackage().getImplementationVersion();
    return ENGINE_NAME + "/" + (version == null ? UNKNOWN_VERSION : version);
  }

  /** The commit timestamp, or null when absent or not a number. */
  public Long timestamp() {
    return values.get("timestamp") instanceof Number n ? n.longValue() : null;
  }

  /** The value of tag {@code name} ({@value #TAGS}), or null. */
  public String tag(String name) {
    return values.get(TAGS) instanceof Map<?, ?> tags && tags.get(name) instanceof String value ? value : null;
  }

  /** The operation name, or null. */
  public String operation() {
    return values.get("operation") instanceof String s ? s : null;
  }
}
