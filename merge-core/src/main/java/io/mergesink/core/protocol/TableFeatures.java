package io.mergesink.core.protocol;

import io.mergesink.core.log.Protocol;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Delta table features (PROTOCOL.md, "Valid Feature Names in Table Features"), whether
 * MergeSink meets each one's requirements, and why not where it does not. This is the one place
 * that decides it: {@link ProtocolSupport} refuses tables needing an unsupported feature, and
 * {@link io.mergesink.core.table.TableProperties} refuses properties that would enable one. A later change that honours a
 * feature flips its entry here.
 */
public final class TableFeatures {
  /** Whether a feature concerns readers too (listed in {@code readerFeatures}) or writers only. */
  public enum Kind { READER_WRITER, WRITER }

  /**
   * A table feature.
   *
   * @param unsupportedBecause null when MergeSink meets the feature's writer (and reader) requirements
   * @param readable whether MergeSink reads tables with the feature correctly (true for every
   *     supported feature; a reader-writer feature may be readable before it is writable)
   */
  public record Feature(String name, Kind kind, String unsupportedBecause, boolean readable) {
    public boolean supported() {
      return unsupportedBecause == null;
    }
  }

  public static final String CHANGE_DATA_FEED = "changeDataFeed";
  private static final Map<String, Feature> FEATURES = registry();
  /** Features that need others in the protocol too (PROTOCOL.md: row tracking and clustering keep domain metadata). */
  private static final Map<String, Set<String>> REQUIRES = Map.of(
      "rowTracking", Set.of(Protocol.DOMAIN_METADATA),
      "clustering", Set.of(Protocol.DOMAIN_METADATA));

  private TableFeatures() {}

  private static Map<String, Feature> registry() {
    Map<String, Feature> features = new LinkedHashMap<>();
    supported(features, Protocol.APPEND_ONLY, Kind.WRITER);
    supported(features, Protocol.INVARIANTS, Kind.WRITER);
    supported(features, Protocol.DELETION_VECTORS, Kind.READER_WRITER);
    supported(features, Protocol.TIMESTAMP_NTZ, Kind.READER_WRITER);
    supported(features, Protocol.DOMAIN_METADATA, Kind.WRITER);
    unsupported(features, "checkConstraints", Kind.WRITER, "MergeSink does not evaluate CHECK constraints");
    supported(features, "generatedColumns", Kind.WRITER);
    unsupported(features, "allowColumnDefaults", Kind.WRITER, "MergeSink does not fill column defaults");
    unsupported(features, "identityColumns", Kind.WRITER, "MergeSink does not generate identity values");
    supported(features, CHANGE_DATA_FEED, Kind.WRITER);
    supported(features, "columnMapping", Kind.READER_WRITER);
    supported(features, "typeWidening", Kind.READER_WRITER);
    supported(features, "typeWidening-preview", Kind.READER_WRITER);
    supported(features, "rowTracking", Kind.WRITER);
    supported(features, "v2Checkpoint", Kind.READER_WRITER);
    unsupported(features, "catalogManaged", Kind.READER_WRITER, "MergeSink commits to the file system, not through a catalog");
    unsupported(features, "icebergCompatV1", Kind.WRITER, "MergeSink does not keep Iceberg metadata compatible");
    unsupported(features, "icebergCompatV2", Kind.WRITER, "MergeSink does not keep Iceberg metadata compatible");
    supported(features, "clustering", Kind.WRITER);
    supported(features, "vacuumProtocolCheck", Kind.READER_WRITER);
    supported(features, "inCommitTimestamp", Kind.WRITER);
    unsupported(features, "variantType", Kind.READER_WRITER, "MergeSink has no variant type");
    unsupported(features, "variantType-preview", Kind.READER_WRITER, "MergeSink has no variant type");
    unsupported(features, "variantShredding-preview", Kind.READER_WRITER, "MergeSink has no variant type");
    return Collections.unmodifiableMap(features);
  }

  /** The feature named {@code name}, if Delta defines it (as far as MergeSink knows). */
  public static Optional<Feature> named(String name) {
    return Optional.ofNullable(FEATURES.get(name));
  }

  /** Names of the features MergeSink supports of {@code kind} ({@link Kind#WRITER}: all it may write). */
  static Set<String> supportedNames(Kind kind) {
    Set<String> names = new TreeSet<>();
    for (Feature feature : FEATURES.values()) {
      if (feature.supported() && (kind == Kind.WRITER || feature.kind() == Kind.READER_WRITER)) {
        names.add(feature.name());
      }
    }
    return Collections.unmodifiableSet(names);
  }

  /**
   * Names of the reader-writer features MergeSink reads correctly: the supported ones and those it
   * reads but does not write yet (column mapping, type widening, V2 checkpoints, VACUUM protocol
   * check, which asks nothing of readers).
   */
  static Set<String> readableReaderFeatures() {
    Set<String> names = new TreeSet<>();
    for (Feature feature : FEATURES.values()) {
      if (feature.readable() && feature.kind() == Kind.READER_WRITER) {
        names.add(feature.name());
      }
    }
    return Collections.unmodifiableSet(names);
  }

  /** Why MergeSink cannot honour feature {@code name}: the registry's reason, or that it does not know it. */
  public static String whyUnsupported(String name) {
    Feature feature = FEATURES.get(name);
    return feature == null ? "MergeSink does not know this feature" : feature.unsupportedBecause();
  }

  /** Whether {@code protocol} supports {@code feature}: lists it, or implies it by its legacy versions. */
  public static boolean supports(Protocol protocol, String feature) {
    return readerFeatures(protocol).contains(feature) || writerFeatures(protocol).contains(feature);
  }

  /**
   * {@code protocol} upgraded to support {@code features} as well (PROTOCOL.md, "Table Features for
   * New and Existing Tables"): itself when it already does; otherwise writer version 7 (and reader
   * version 3 when a reader feature is involved) listing every feature the old versions implied
   * plus the new ones and the features they require.
   *
   * @throws IllegalArgumentException for a feature Delta does not define
   */
  public static Protocol withFeatures(Protocol protocol, Set<String> features) {
    Set<String> readers = new TreeSet<>(readerFeatures(protocol));
    Set<String> writers = new TreeSet<>(writerFeatures(protocol));
    Set<String> wanted = new TreeSet<>(features);
    features.forEach(name -> wanted.addAll(REQUIRES.getOrDefault(name, Set.of())));
    boolean changed = false;
    for (String name : wanted) {
      Feature feature = FEATURES.get(name);
      if (feature == null) {
        throw new IllegalArgumentException("unknown Delta table feature '" + name + "'");
      }
      changed |= writers.add(name);
      if (feature.kind() == Kind.READER_WRITER) {
        changed |= readers.add(name);
      }
    }
    if (!changed) {
      return protocol;
    }
    if (readers.isEmpty() && protocol.minReaderVersion() < Protocol.TABLE_FEATURES_READER_VERSION) {
      return new Protocol(protocol.minReaderVersion(), Protocol.TABLE_FEATURES_WRITER_VERSION, null, writers);
    }
    return Protocol.withFeatures(readers, writers);
  }

  /** The reader features of {@code protocol}: listed (reader 3) or implied by its version. */
  static Set<String> readerFeatures(Protocol protocol) {
    if (protocol.minReaderVersion() >= Protocol.TABLE_FEATURES_READER_VERSION) {
      return protocol.readerFeatures() == null ? Set.of() : protocol.readerFeatures();
    }
    return protocol.minReaderVersion() >= 2 ? Set.of("columnMapping") : Set.of();
  }

  /** The writer features of {@code protocol}: listed (writer 7) or implied by its version (PROTOCOL.md, "Writer Version Requirements"). */
  static Set<String> writerFeatures(Protocol protocol) {
    int version = protocol.minWriterVersion();
    if (version >= Protocol.TABLE_FEATURES_WRITER_VERSION) {
      return protocol.writerFeatures() == null ? Set.of() : protocol.writerFeatures();
    }
    Set<String> implied = new TreeSet<>();
    if (version >= 2) {
      implied.add(Protocol.APPEND_ONLY);
      implied.add(Protocol.INVARIANTS);
    }
    if (version >= 3) {
      implied.add("checkConstraints");
    }
    if (version >= 4) {
      implied.add(CHANGE_DATA_FEED);
      implied.add("generatedColumns");
    }
    if (version >= 5) {
      implied.add("columnMapping");
    }
    if (version >= 6) {
      implied.add("identityColumns");
    }
    return implied;
  }

  private static void supported(Map<String, Feature> features, String name, Kind kind) {
    features.put(name, new Feature(name, kind, null, true));
  }

  private static void unsupported(Map<String, Feature> features, String name, Kind kind, String reason) {
    features.put(name, new Feature(name, kind, reason, false));
  }
}
