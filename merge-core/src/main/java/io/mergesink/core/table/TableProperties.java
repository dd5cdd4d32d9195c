package io.mergesink.core.table;

import io.mergesink.core.log.CheckpointWriter;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.TableFeatures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Delta table properties ({@code delta.*}) a new table may be given, and what each does
 * (docs/design.md, "Table properties"). One registry: a property either changes nothing a writer
 * must do (retention, checkpoint and statistics settings), enables a table feature (honoured when
 * {@link TableFeatures} says MergeSink meets its requirements: the protocol then lists it), or is
 * refused with the reason. Like Delta, unknown {@code delta.*} keys are refused; keys outside
 * {@code delta.} are the user's own and pass unchanged. Keys are matched case-insensitively.
 */
public final class TableProperties {
  /** Prefix of the protocol-only properties that ask for a feature ({@code delta.feature.<name>=supported}). */
  public static final String FEATURE_PREFIX = "delta.feature.";
  private static final String DELTA_PREFIX = "delta.";
  private static final Set<String> FEATURE_VALUES = Set.of("supported", "enabled");
  private static final String CLUSTERING = "clustering";
  /** Properties that change nothing MergeSink must do when it writes, by lower-case key. */
  private static final Set<String> HARMLESS = lowerCase(
      "delta.logRetentionDuration", "delta.deletedFileRetentionDuration", "delta.checkpointRetentionDuration",
      "delta.sampleRetentionDuration", "delta.enableExpiredLogCleanup", "delta.enableFullRetentionRollback",
      "delta.checkpointInterval", "delta.checkpoint.writeStatsAsJson",
      "delta.dataSkippingNumIndexedCols", "delta.dataSkippingStatsColumns", "delta.isolationLevel",
      "delta.autoOptimize.autoCompact", "delta.autoOptimize.optimizeWrite", "delta.targetFileSize",
      "delta.tuneFileSizesForRewrites", "delta.randomizeFilePrefixes", "delta.randomPrefixLength");
  private static final Map<String, Toggle> TOGGLES = toggles();
  private static final Map<String, String> REFUSED = refused();

  private TableProperties() {}

  /** A property a new table cannot take, with what is wrong. */
  public record Refusal(String key, String value, String reason) {
    @Override
    public String toString() {
      return key + "=" + value + ": " + reason;
    }
  }

  /**
   * The properties of {@code properties} a new table written with {@code strategy} (empty: an append
   * table) cannot take; empty when it can take them all.
   */
  public static List<Refusal> refusals(Map<String, String> properties, Optional<MergeStrategy> strategy) {
    List<Refusal> refusals = new ArrayList<>();
    properties.forEach((key, value) -> problem(key, value, strategy).ifPresent(reason -> refusals.add(new Refusal(key, value, reason))));
    return refusals;
  }

  /**
   * The features {@code properties} enable, to be listed in the new table's protocol.
   *
   * @throws IllegalArgumentException when {@link #refusals} has any
   */
  static Set<String> enabledFeatures(Map<String, String> properties, Optional<MergeStrategy> strategy) {
    requireAccepted(properties, strategy);
    Set<String> features = new TreeSet<>();
    properties.forEach((key, value) -> {
      String lower = key.toLowerCase(Locale.ROOT);
      if (lower.startsWith(FEATURE_PREFIX)) {
        features.add(featureName(key));
      } else if (TOGGLES.containsKey(lower)) {
        TOGGLES.get(lower).featureFor(value).ifPresent(features::add);
      }
    });
    return features;
  }

  /**
   * The {@code configuration} of the new table: {@code properties} without the protocol-only
   * {@code delta.feature.*} keys (Delta keeps those in the protocol, never in the metadata).
   *
   * @throws IllegalArgumentException when {@link #refusals} has any
   */
  static Map<String, String> configuration(Map<String, String> properties, Optional<MergeStrategy> strategy) {
    requireAccepted(properties, strategy);
    Map<String, String> configuration = new LinkedHashMap<>();
    properties.forEach((key, value) -> {
      if (!key.toLowerCase(Locale.ROOT).startsWith(FEATURE_PREFIX)) {
        configuration.put(key, value);
      }
    });
    return configuration;
  }

  private static void requireAccepted(Map<String, String> properties, Optional<MergeStrategy> strategy) {
    List<Refusal> refusals = refusals(properties, strategy);
    if (!refusals.isEmpty()) {
      throw new IllegalArgumentException("table properties MergeSink cannot honour: " + refusals);
    }
  }

  private static Optional<String> problem(String key, String value, Optional<MergeStrategy> strategy) {
    String lower = key.toLowerCase(Locale.ROOT);
    if (!lower.startsWith(DELTA_PREFIX) || HARMLESS.contains(lower)) {
      return Optional.empty();
    }
    if (lower.startsWith(FEATURE_PREFIX)) {
      return featureProblem(featureName(key), value);
    }
    if (lower.equals(CheckpointWriter.STATS_AS_STRUCT_PROPERTY.toLowerCase(Locale.ROOT))) {
      return value.equalsIgnoreCase("false") ? Optional.empty()
          : Optional.of("MergeSink writes checkpoint statistics as JSON (delta.checkpoint.writeStatsAsJson), not as structs");
    }
    if (lower.startsWith("delta.constraints.")) {
      return Optional.of(TableFeatures.whyUnsupported("checkConstraints"));
    }
    if (REFUSED.containsKey(lower)) {
      return Optional.of(REFUSED.get(lower));
    }
    Toggle toggle = TOGGLES.get(lower);
    if (toggle == null) {
      return Optional.of("not a Delta table property MergeSink knows (Delta refuses unknown delta.* keys too)");
    }
    return toggle.problem(value, strategy);
  }

  private static Optional<String> featureProblem(String name, String value) {
    if (!FEATURE_VALUES.contains(value.toLowerCase(Locale.ROOT))) {
      return Optional.of("expected 'supported'");
    }
    if (name.equalsIgnoreCase(CLUSTERING)) {
      return Optional.of("a clustered table needs its clustering columns (Spark's CLUSTER BY); MergeSink writes to clustered tables"
          + " but does not create them");
    }
    Optional<TableFeatures.Feature> feature = TableFeatures.named(name);
    if (feature.isEmpty() || !feature.get().supported()) {
      return Optional.of(TableFeatures.whyUnsupported(name));
    }
    return Optional.empty();
  }

  private static String featureName(String key) {
    return key.substring(FEATURE_PREFIX.length());
  }

  /**
   * A property whose value decides whether a feature is enabled.
   *
   * @param feature the feature the enabling values need
   * @param disabling values that enable nothing (lower case)
   * @param enabling values that enable {@code feature} (lower case)
   * @param constraint what the value means for the write strategy beyond its feature
   */
  private record Toggle(String feature, Set<String> disabling, Set<String> enabling, Constraint constraint) {
    Optional<String> featureFor(String value) {
      return enabling.contains(value.toLowerCase(Locale.ROOT)) ? Optional.of(feature) : Optional.empty();
    }

    Optional<String> problem(String value, Optional<MergeStrategy> strategy) {
      String lower = value.toLowerCase(Locale.ROOT);
      if (!disabling.contains(lower) && !enabling.contains(lower)) {
        return Optional.of("expected " + describe());
      }
      Optional<String> conflict = constraint.conflict(enabling.contains(lower), strategy);
      if (conflict.isPresent()) {
        return conflict;
      }
      if (enabling.contains(lower)) {
        TableFeatures.Feature needed = TableFeatures.named(feature).orElseThrow();
        return needed.supported() ? Optional.empty() : Optional.of(needed.unsupportedBecause());
      }
      return Optional.empty();
    }

    private String describe() {
      Set<String> values = new TreeSet<>(disabling);
      values.addAll(enabling);
      return values.equals(Set.of("true", "false")) ? "true or false" : "one of " + values;
    }
  }

  /** What a property's value means for a table of a given strategy (empty: an append table) beyond its feature. */
  @FunctionalInterface
  private interface Constraint {
    Constraint NONE = (enabled, strategy) -> Optional.empty();

    Optional<String> conflict(boolean enabled, Optional<MergeStrategy> strategy);
  }

  private static Map<String, Toggle> toggles() {
    Set<String> no = Set.of("false");
    Set<String> yes = Set.of("true");
    Map<String, Toggle> toggles = new LinkedHashMap<>();
    toggles.put("delta.appendonly", new Toggle("appendOnly", no, yes, (enabled, strategy) -> enabled && strategy.isPresent()
        ? Optional.of("an append-only table refuses the updates and deletes of upserts; use it with write.mode=append")
        : Optional.empty()));
    toggles.put("delta.enabledeletionvectors", new Toggle("deletionVectors", no, yes,
        (enabled, strategy) -> !enabled && strategy.equals(Optional.of(MergeStrategy.DELETION_VECTORS))
            ? Optional.of("merge.strategy=deletion-vectors writes deletion vectors; use merge.strategy=copy-on-write for a table without them")
            : Optional.empty()));
    toggles.put("delta.enablechangedatafeed", new Toggle("changeDataFeed", no, yes, Constraint.NONE));
    toggles.put("delta.enablechangedatacapture", new Toggle("changeDataFeed", no, yes, Constraint.NONE));
    toggles.put("delta.columnmapping.mode", new Toggle("columnMapping", Set.of("none"), Set.of("name", "id"), Constraint.NONE));
    toggles.put("delta.enabletypewidening", new Toggle("typeWidening", no, yes, Constraint.NONE));
    toggles.put("delta.enablerowtracking", new Toggle("rowTracking", no, yes, Constraint.NONE));
    toggles.put("delta.checkpointpolicy", new Toggle("v2Checkpoint", Set.of("classic"), Set.of("v2"), Constraint.NONE));
    toggles.put("delta.enableicebergcompatv1", new Toggle("icebergCompatV1", no, yes, Constraint.NONE));
    toggles.put("delta.enableicebergcompatv2", new Toggle("icebergCompatV2", no, yes, Constraint.NONE));
    toggles.put("delta.enableincommittimestamps", new Toggle("inCommitTimestamp", no, yes, Constraint.NONE));
    toggles.put("delta.enablevariantshredding", new Toggle("variantShredding-preview", no, yes, Constraint.NONE));
    return toggles;
  }

  private static Map<String, String> refused() {
    Map<String, String> refused = new LinkedHashMap<>();
    refused.put("delta.settransactionretentionduration", "txn actions hold the Kafka offsets exactly-once delivery resumes from; "
        + "readers that expire them would make a restart re-read or skip records");
    refused.put("delta.minreaderversion", "MergeSink chooses the protocol versions from the features in use; ask for a feature with "
        + FEATURE_PREFIX + "<name>=supported");
    refused.put("delta.minwriterversion", "MergeSink chooses the protocol versions from the features in use; ask for a feature with "
        + FEATURE_PREFIX + "<name>=supported");
    refused.put("delta.ignoreprotocoldefaults", "MergeSink chooses the protocol versions from the features in use");
    refused.put("delta.compatibility.symlinkformatmanifest.enabled", "MergeSink does not generate symlink manifests");
    refused.put("delta.universalformat.enabledformats", TableFeatures.whyUnsupported("icebergCompatV2"));
    refused.put("delta.columnmapping.maxcolumnid", "MergeSink keeps the largest column id of a column-mapped table itself, as Delta does");
    refused.put("delta.parquet.compression.codec", "MergeSink compresses data files with the connector's parquet.compression");
    refused.put("delta.parquet.format.version", "MergeSink writes Parquet data pages v1");
    return refused;
  }

  private static Set<String> lowerCase(String... keys) {
    Set<String> lower = new TreeSet<>();
    for (String key : keys) {
      lower.add(key.toLowerCase(Locale.ROOT));
    }
    return lower;
  }
}
