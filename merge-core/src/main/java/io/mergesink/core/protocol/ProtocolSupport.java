package io.mergesink.core.protocol;

import io.mergesink.core.generatedcolumns.GeneratedColumns;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.types.TypeChanges;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Which Delta protocols MergeSink can read and write (PROTOCOL.md, "Table Features"), and the
 * protocol of the tables it creates. A table needing anything else is refused before a single
 * byte is written, so MergeSink never commits something a feature it ignores would forbid.
 */
public final class ProtocolSupport {
  public static final String DELETION_VECTORS = "deletionVectors";
  public static final String TIMESTAMP_NTZ = "timestampNtz";
  public static final String APPEND_ONLY = "appendOnly";
  public static final String INVARIANTS = "invariants";
  public static final String DOMAIN_METADATA = "domainMetadata";
  public static final String GENERATED_COLUMNS = "generatedColumns";
  public static final String TYPE_WIDENING = "typeWidening";
  private static final String TYPE_WIDENING_PREVIEW = "typeWidening-preview";

  static final int MAX_READER_VERSION = 3;
  static final int MAX_WRITER_VERSION = 7;
  /**
   * What MergeSink reads correctly (TableFeatures): deletion vectors, timestamp_ntz, column mapping
   * (physical names and field ids), type widening (files with the old types), V2 checkpoints
   * (UUID-named, sidecars) and VACUUM protocol check (nothing to do for readers). Writing needs
   * more (WRITER_FEATURES).
   */
  private static final Set<String> READER_FEATURES = TableFeatures.readableReaderFeatures();
  /**
   * Among them {@code appendOnly} and {@code invariants}, legacy features every writer-v7 table
   * lists; supporting them means honouring {@code delta.appendOnly} and refusing schemas with invariants.
   */
  private static final Set<String> WRITER_FEATURES = TableFeatures.supportedNames(TableFeatures.Kind.WRITER);
  private static final String INVARIANTS_METADATA_KEY = "delta.invariants";
  private static final String CHECK_CONSTRAINTS = "checkConstraints";
  private static final String IDENTITY_COLUMNS = "identityColumns";
  private static final String COLUMN_DEFAULTS = "allowColumnDefaults";
  private static final String CONSTRAINTS_PREFIX = "delta.constraints.";
  private static final String IDENTITY_PREFIX = "delta.identity.";
  private static final String CURRENT_DEFAULT = "CURRENT_DEFAULT";
  private static final String LEGACY_CHANGE_DATA_FEED = "delta.enableChangeDataCapture";
  /** Columns change data readers add (PROTOCOL.md, "Change Data Files" and "Reader Requirements for AddCDCFile"). */
  private static final List<String> CHANGE_FEED_COLUMNS = List.of("_change_type", "_commit_version", "_commit_timestamp");

  private ProtocolSupport() {}

  /** Throws {@link UnsupportedTableException} when MergeSink cannot read the table correctly. */
  public static void checkReadable(String tableRoot, Protocol protocol) {
    if (protocol.minReaderVersion() > MAX_READER_VERSION) {
      throw new UnsupportedTableException(tableRoot, "reader version " + protocol.minReaderVersion() + " (supported: up to " + MAX_READER_VERSION + ")");
    }
    Set<String> unsupported = unsupported(protocol.readerFeatures(), READER_FEATURES);
    if (!unsupported.isEmpty()) {
      throw new UnsupportedTableException(tableRoot, "reader features " + unsupported);
    }
  }

  /** Throws {@link UnsupportedTableException} when MergeSink cannot write the table correctly. */
  public static void checkWritable(String tableRoot, Protocol protocol, Metadata metadata) {
    checkReadable(tableRoot, protocol);
    int writerVersion = protocol.minWriterVersion();
    if (writerVersion > MAX_WRITER_VERSION) {
      throw new UnsupportedTableException(tableRoot, "writer version " + writerVersion + " (supported: up to " + MAX_WRITER_VERSION + ")");
    }
    Set<String> unsupported = new TreeSet<>();
    for (String feature : TableFeatures.writerFeatures(protocol)) {
      if (!WRITER_FEATURES.contains(feature) && inUse(feature, metadata)) {
        unsupported.add(feature);
      }
    }
    if (!unsupported.isEmpty()) {
      throw new UnsupportedTableException(tableRoot, (writerVersion < Protocol.TABLE_FEATURES_WRITER_VERSION
          ? "writer version " + writerVersion + ", which implies writer features " : "writer features ") + unsupported);
    }
    StructType schema = metadata.schema();
    if (writesChangeData(protocol, metadata)) {
      schema.fields().stream().filter(field -> CHANGE_FEED_COLUMNS.contains(field.name().toLowerCase(Locale.ROOT))).findFirst()
          .ifPresent(field -> {
            throw UnsupportedTableException.notWritable(tableRoot, "column '" + field.name() + "', a name the change data feed "
                + "reserves (" + CHANGE_FEED_COLUMNS + "), in a table with delta.enableChangeDataFeed=true");
          });
    }
    if (hasInvariants(schema)) {
      throw new UnsupportedTableException(tableRoot, "column invariants (delta.invariants)");
    }
    for (String column : metadata.partitionColumns()) {
      schema.fields().stream().filter(field -> field.name().equalsIgnoreCase(column) && !isPartitionType(field)).findFirst()
          .ifPresent(field -> {
            throw UnsupportedTableException.notWritable(tableRoot, "partition column '" + field.name() + "' is " + field.type()
                + ", whose partition values MergeSink does not write");
          });
    }
    try {
      GeneratedColumns.of(schema);
    } catch (IllegalArgumentException e) {
      throw UnsupportedTableException.notWritable(tableRoot, e.getMessage());
    }
  }

  /** Whether the table refuses deletes and updates ({@code delta.appendOnly=true}). */
  public static boolean isAppendOnly(Metadata metadata) {
    return metadata.appendOnly();
  }

  /**
   * Whether writers must write change data files (PROTOCOL.md, "Writer Requirements for
   * AddCDCFile"): {@code delta.enableChangeDataFeed=true} (or its older name
   * {@code delta.enableChangeDataCapture}) in a table whose protocol supports {@code changeDataFeed};
   * without the feature the property means nothing.
   */
  public static boolean writesChangeData(Protocol protocol, Metadata metadata) {
    if (!TableFeatures.supports(protocol, TableFeatures.CHANGE_DATA_FEED)) {
      return false;
    }
    for (Map.Entry<String, String> entry : metadata.configuration().entrySet()) {
      String key = entry.getKey();
      if ((key.equalsIgnoreCase(Metadata.ENABLE_CHANGE_DATA_FEED) || key.equalsIgnoreCase(LEGACY_CHANGE_DATA_FEED))
          && Boolean.parseBoolean(entry.getValue().trim())) {
        return true;
      }
    }
    return false;
  }

  /** Whether writers may add deletion vectors: {@code delta.enableDeletionVectors=true} (PROTOCOL.md, "Deletion Vectors"). */
  public static boolean enablesDeletionVectors(Metadata metadata) {
    return Boolean.parseBoolean(metadata.configuration().getOrDefault(Metadata.ENABLE_DELETION_VECTORS, "false").trim());
  }

  /** Whether the table may carry deletion vectors. */
  public static boolean supportsDeletionVectors(Protocol protocol) {
    return protocol.writerFeatures() != null && protocol.writerFeatures().contains(DELETION_VECTORS);
  }

  /**
   * The protocol of a new table with {@code schema} that uses {@code features}: reader 3 / writer 7
   * with table features when a feature (deletion vectors, timestamp_ntz, ...) needs them,
   * otherwise the widely readable reader 1 / writer 2.
   */
  public static Protocol protocolFor(StructType schema, Set<String> features) {
    Set<String> needed = new TreeSet<>(schemaFeatures(schema));
    needed.addAll(features);
    return TableFeatures.withFeatures(Protocol.legacy(1, 2), needed);
  }

  /**
   * The protocol a table needs once its schema is {@code schema}: {@code current} when it already
   * supports every feature the schema uses (e.g. {@code timestampNtz} for timestamp_ntz columns),
   * otherwise {@code current} upgraded with them, keeping every feature it had.
   */
  public static Protocol forSchema(Protocol current, StructType schema) {
    Set<String> features = new TreeSet<>(schemaFeatures(schema));
    if (TableFeatures.supports(current, TYPE_WIDENING_PREVIEW)) {
      features.remove(TYPE_WIDENING); // the preview feature's tables record type changes the same way
    }
    return TableFeatures.withFeatures(current, features);
  }

  /**
   * The features a schema needs: {@code timestampNtz} for timestamp_ntz columns,
   * {@code generatedColumns} for generated columns, {@code typeWidening} for recorded type changes.
   */
  private static Set<String> schemaFeatures(StructType schema) {
    Set<String> features = new TreeSet<>();
    if (TypeChanges.hasTypeChanges(schema)) {
      features.add(TYPE_WIDENING);
    }
    if (contains(schema, PrimitiveType.TIMESTAMP_NTZ)) {
      features.add(TIMESTAMP_NTZ);
    }
    if (!GeneratedColumns.of(schema).isEmpty()) {
      features.add(GENERATED_COLUMNS);
    }
    return features;
  }

  private static Set<String> unsupported(Set<String> features, Set<String> supported) {
    Set<String> unsupported = new TreeSet<>();
    if (features != null) {
      for (String feature : features) {
        if (!supported.contains(feature)) {
          unsupported.add(feature);
        }
      }
    }
    return unsupported;
  }

  /**
   * Whether the table uses {@code feature}, which MergeSink does not honour. A protocol may list a
   * feature (or imply it by a legacy writer version: Spark gives a table with only the change data
   * feed writer version 4, which implies CHECK constraints) that the table does not use, and then
   * writers have nothing to honour: no CHECK constraint is defined ({@code delta.constraints.*}),
   * no column is an identity column ({@code delta.identity.*}) or has a default
   * ({@code CURRENT_DEFAULT}). Any other feature counts as used.
   */
  private static boolean inUse(String feature, Metadata metadata) {
    return switch (feature) {
      case CHECK_CONSTRAINTS -> metadata.configuration().keySet().stream()
          .anyMatch(key -> key.toLowerCase(Locale.ROOT).startsWith(CONSTRAINTS_PREFIX));
      case IDENTITY_COLUMNS -> hasColumnMetadata(metadata.schema(), key -> key.startsWith(IDENTITY_PREFIX));
      case COLUMN_DEFAULTS -> hasColumnMetadata(metadata.schema(), CURRENT_DEFAULT::equals);
      default -> true;
    };
  }

  private static boolean hasColumnMetadata(StructType schema, Predicate<String> key) {
    for (StructField field : schema.fields()) {
      if (field.metadata().keySet().stream().anyMatch(key) || (field.type() instanceof StructType nested && hasColumnMetadata(nested, key))) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasInvariants(StructType schema) {
    for (StructField field : schema.fields()) {
      if (field.metadata().containsKey(INVARIANTS_METADATA_KEY) || (field.type() instanceof StructType nested && hasInvariants(nested))) {
        return true;
      }
    }
    return false;
  }

  static boolean contains(DataType type, PrimitiveType wanted) {
    if (type == wanted) {
      return true;
    }
    if (type instanceof StructType struct) {
      return struct.fields().stream().anyMatch(field -> contains(field.type(), wanted));
    }
    if (type instanceof ArrayType array) {
      return contains(array.elementType(), wanted);
    }
    if (type instanceof MapType map) {
      return contains(map.keyType(), wanted) || contains(map.valueType(), wanted);
    }
    return false;
  }

  /** Whether MergeSink writes partition values of {@code field}'s type: primitive types but binary, and decimals. */
  public static boolean isPartitionType(StructField field) {
    return field.type() instanceof DecimalType || (field.type() instanceof PrimitiveType primitive && primitive != PrimitiveType.BINARY);
  }
}
