package io.mergesink.ingest.testing;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.paimon.utils.SnapshotManager;

/**
 * The tables of one {@code table.format} as the tests' independent readers see them: Delta tables
 * through Delta Kernel ({@link KernelTables}), Iceberg tables through Iceberg's generic reader
 * ({@link IcebergTables}). Rows come back in the engine's
 * in-memory representation ({@link DataType}: dates as days, timestamps as microseconds, binary
 * as {@code byte[]}), whichever format holds them, so one comparison serves both. The Iceberg
 * types and values are converted here, independently of the sink's own conversion
 * ({@code IcebergSchemas}, {@code IcebergRows}): a mistake there that its inverse undoes on the way
 * back cannot hide behind the reader.
 */
public enum SinkTables {
  DELTA {
    @Override
    public String location(String root, String name) {
      return root + "/" + name;
    }

    @Override
    public boolean exists(String table) {
      return hasDirectory(table, "_delta_log") && KernelTables.latestVersion(table) >= 0;
    }

    @Override
    public StructType schema(String table) {
      return KernelTables.schema(table);
    }

    @Override
    public List<Row> readRows(String table) {
      return KernelTables.readRows(table);
    }

    @Override
    public List<Long> versions(String table) {
      return LongStream.rangeClosed(0, KernelTables.latestVersion(table)).boxed().toList();
    }

    @Override
    public List<Row> readRows(String table, long version) {
      return KernelTables.readRows(table, version);
    }

    @Override
    public Optional<Long> position(String table, String appId) {
      return hasDirectory(table, "_delta_log") ? KernelTables.txnVersion(table, appId) : Optional.empty();
    }

    @Override
    public List<String> missingFiles(String table) {
      return TableAudit.missingFiles(table);
    }

    @Override
    public StructType stored(StructType schema) {
      return schema;
    }
  },

  /**
   * Iceberg tables at {@code <table.root>/<namespace>/<name>} (the layout of the Hadoop catalog, and
   * of a JDBC catalog with the table root as its warehouse), a name without a directory in namespace
   * {@value #DEFAULT_NAMESPACE}, loaded through the catalog that holds them ({@link IcebergTables#load}). Iceberg has no byte or short:
   * the sink stores them as int ({@link #stored}).
   */
  ICEBERG {
    @Override
    public String location(String root, String name) {
      return root + "/" + (name.contains("/") ? name : DEFAULT_NAMESPACE + "/" + name);
    }

    @Override
    public boolean exists(String table) {
      try {
        return hasDirectory(table, "metadata") && IcebergTables.load(table).currentSnapshot() != null;
      } catch (NoSuchTableException e) {
        return false;
      }
    }

    @Override
    public StructType schema(String table) {
      return (StructType) engineType(IcebergTables.load(table).schema().asStruct());
    }

    @Override
    public List<Row> readRows(String table) {
      Table iceberg = IcebergTables.load(table);
      return iceberg.currentSnapshot() == null ? List.of() : readRows(iceberg, iceberg.currentSnapshot().snapshotId());
    }

    @Override
    public List<Long> versions(String table) {
      List<Snapshot> snapshots = new ArrayList<>();
      IcebergTables.load(table).snapshots().forEach(snapshots::add);
      return snapshots.stream().sorted(Comparator.comparingLong(Snapshot::sequenceNumber)).map(Snapshot::snapshotId).toList();
    }

    @Override
    public List<Row> readRows(String table, long version) {
      return readRows(IcebergTables.load(table), version);
    }

    private List<Row> readRows(Table iceberg, long snapshotId) {
      Types.StructType struct = iceberg.schema().asStruct();
      List<Row> rows = new ArrayList<>();
      for (Row row : IcebergTables.readRows(iceberg, snapshotId)) {
        rows.add((Row) engineValue(struct, row));
      }
      return rows;
    }

    @Override
    public Optional<Long> position(String table, String appId) {
      if (!exists(table)) {
        return Optional.empty();
      }
      return Optional.ofNullable(IcebergTables.positions(IcebergTables.load(table)).get(appId));
    }

    @Override
    public List<String> missingFiles(String table) {
      Table iceberg = IcebergTables.load(table);
      List<String> missing = new ArrayList<>();
      try (CloseableIterable<FileScanTask> tasks = iceberg.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          if (!iceberg.io().newInputFile(task.file().location()).exists()) {
            missing.add("data file " + task.file().location());
          }
          for (DeleteFile delete : task.deletes()) {
            if (!iceberg.io().newInputFile(delete.location()).exists()) {
              missing.add("delete file " + delete.location() + " of " + task.file().location());
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("planning the files of " + table, e);
      }
      return missing.stream().distinct().toList();
    }

    @Override
    public StructType stored(StructType schema) {
      List<StructField> fields = new ArrayList<>();
      for (StructField field : schema.fields()) {
        boolean narrow = field.type() == PrimitiveType.BYTE || field.type() == PrimitiveType.SHORT;
        fields.add(narrow ? new StructField(field.name(), PrimitiveType.INTEGER, field.nullable()) : field);
      }
      return new StructType(fields);
    }
  },

  /**
   * Paimon tables at {@code <table.root>/<database>.db/<name>} (the layout of the filesystem
   * catalog with the table root as its warehouse), a name without a directory in database
   * {@value #DEFAULT_NAMESPACE}, read with Paimon's own reader ({@link PaimonTables}): deletion
   * vectors and merges applied.
   */
  PAIMON {
    @Override
    public String location(String root, String name) {
      String[] parts = name.contains("/") ? name.split("/", 2) : new String[] {DEFAULT_NAMESPACE, name};
      return root + "/" + parts[0] + ".db/" + parts[1];
    }

    @Override
    public boolean exists(String table) {
      return PaimonTables.loadAt(table).map(paimon -> paimon.snapshotManager().latestSnapshotId() != null).orElse(false);
    }

    @Override
    public StructType schema(String table) {
      return PaimonTables.engineSchema(paimon(table));
    }

    @Override
    public List<Row> readRows(String table) {
      return PaimonTables.engineRows(paimon(table));
    }

    @Override
    public List<Long> versions(String table) {
      SnapshotManager snapshots = paimon(table).snapshotManager();
      Long earliest = snapshots.earliestSnapshotId();
      return earliest == null ? List.of() : LongStream.rangeClosed(earliest, snapshots.latestSnapshotId()).boxed().toList();
    }

    @Override
    public List<Row> readRows(String table, long version) {
      return PaimonTables.engineRows(PaimonTables.at(paimon(table), version));
    }

    @Override
    public Optional<Long> position(String table, String appId) {
      return exists(table) ? PaimonTables.position(paimon(table), appId) : Optional.empty();
    }

    @Override
    public List<String> missingFiles(String table) {
      return PaimonTables.missingFiles(paimon(table));
    }

    @Override
    public StructType stored(StructType schema) {
      return schema;
    }

    private org.apache.paimon.table.FileStoreTable paimon(String table) {
      return PaimonTables.loadAt(table).orElseThrow(() -> new IllegalStateException("no Paimon table at " + table));
    }
  };

  /** The namespace of Iceberg tables (and database of Paimon tables) whose name has no directory ({@code iceberg.tables.default-namespace}'s default). */
  public static final String DEFAULT_NAMESPACE = "default";

  private static final String FORMAT_OPTION = "table.format";

  /** The tables of the format a sink configuration writes ({@code table.format}, Delta when absent). */
  public static SinkTables of(Map<String, String> sinkConfig) {
    return valueOf(sinkConfig.getOrDefault(FORMAT_OPTION, "delta").toUpperCase(Locale.ROOT));
  }

  /** Where the sink writing under {@code root} puts table {@code name} (a {@code table.name.format} result). */
  public abstract String location(String root, String name);

  /** {@link #location(String, String)} of a local root. */
  public String location(Path root, String name) {
    return location(root.toAbsolutePath().toString(), name);
  }

  /** Whether the table at {@code table} (a local path) has a first commit. */
  public abstract boolean exists(String table);

  /** The table's schema as engine types. */
  public abstract StructType schema(String table);

  /** Every live row of the latest snapshot, in schema order, values as the engine holds them. */
  public abstract List<Row> readRows(String table);

  /** The versions of {@code table} readers travel to, oldest first: Delta's versions, Iceberg's and Paimon's snapshot ids. */
  public abstract List<Long> versions(String table);

  /** Every live row of {@code table} at {@code version}, one of {@link #versions}. */
  public abstract List<Row> readRows(String table, long version);

  /** The Kafka position the sink recorded under {@code appId} ({@code <connector>:<topic>:<partition>}): the last offset. */
  public abstract Optional<Long> position(String table, String appId);

  /** Live data and deletion files of the latest snapshot that are missing. */
  public abstract List<String> missingFiles(String table);

  /** The schema a table of this format holds for engine schema {@code schema}: types it stores wider, widened. */
  public abstract StructType stored(StructType schema);

  /** {@code row} of engine schema {@code schema} as a table of this format stores it ({@link #stored}). */
  public Row stored(StructType schema, Row row) {
    StructType stored = stored(schema);
    Object[] values = row.toArray();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null && stored.field(i).type() == PrimitiveType.INTEGER) {
        values[i] = ((Number) values[i]).intValue();
      }
    }
    return Row.of(values);
  }

  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  /** The engine type of an Iceberg type, for the types the sink creates. */
  private static DataType engineType(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN -> PrimitiveType.BOOLEAN;
      case INTEGER -> PrimitiveType.INTEGER;
      case LONG -> PrimitiveType.LONG;
      case FLOAT -> PrimitiveType.FLOAT;
      case DOUBLE -> PrimitiveType.DOUBLE;
      case STRING -> PrimitiveType.STRING;
      case BINARY -> PrimitiveType.BINARY;
      case DATE -> PrimitiveType.DATE;
      case TIMESTAMP -> ((Types.TimestampType) type).shouldAdjustToUTC() ? PrimitiveType.TIMESTAMP : PrimitiveType.TIMESTAMP_NTZ;
      case DECIMAL -> new DecimalType(((Types.DecimalType) type).precision(), ((Types.DecimalType) type).scale());
      case LIST -> new ArrayType(engineType(type.asListType().elementType()), type.asListType().isElementOptional());
      case MAP -> new MapType(engineType(type.asMapType().keyType()), engineType(type.asMapType().valueType()),
          type.asMapType().isValueOptional());
      case STRUCT -> new StructType(type.asStructType().fields().stream()
          .map(field -> new StructField(field.name(), engineType(field.type()), field.isOptional())).toList());
      default -> throw new IllegalArgumentException("the sink creates no Iceberg columns of type " + type);
    };
  }

  /** An Iceberg generic value (a struct as a {@link Row} or {@link Record}) as the engine holds it. */
  private static Object engineValue(Type type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type.typeId()) {
      case STRING -> value.toString();
      case BINARY -> {
        ByteBuffer buffer = ((ByteBuffer) value).duplicate();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        yield bytes;
      }
      case DATE -> Math.toIntExact(((LocalDate) value).toEpochDay());
      case TIMESTAMP -> value instanceof OffsetDateTime zoned ? micros(zoned.toInstant().getEpochSecond(), zoned.getNano())
          : micros(((LocalDateTime) value).toEpochSecond(ZoneOffset.UTC), ((LocalDateTime) value).getNano());
      case LIST -> {
        List<Object> list = new ArrayList<>();
        for (Object element : (List<?>) value) {
          list.add(engineValue(type.asListType().elementType(), element));
        }
        yield list;
      }
      case MAP -> {
        Map<Object, Object> map = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((key, item) -> map.put(engineValue(type.asMapType().keyType(), key),
            engineValue(type.asMapType().valueType(), item)));
        yield map;
      }
      case STRUCT -> {
        List<Types.NestedField> fields = type.asStructType().fields();
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
          Object field = value instanceof Record record ? record.get(i) : ((Row) value).get(i);
          values[i] = engineValue(fields.get(i).type(), field);
        }
        yield Row.of(values);
      }
      default -> value;
    };
  }

  private static long micros(long epochSecond, int nanos) {
    return Math.addExact(Math.multiplyExact(epochSecond, MICROS_PER_SECOND), nanos / NANOS_PER_MICRO);
  }

  /** Whether {@code table} is a local path with directory {@code child}; a table elsewhere (s3://) counts as having it. */
  private static boolean hasDirectory(String table, String child) {
    return table.contains("://") || Files.isDirectory(Path.of(table, child));
  }
}
