package io.mergesink.ingest.testing;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.testing.TestS3;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.UncheckedIOException;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.utils.SnapshotManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;

/**
 * Paimon tables as an outside reader sees them: loaded from a filesystem catalog and read with
 * Paimon's own {@link ReadBuilder} (deletion vectors and merges applied), independently of the
 * sink's format package.
 */
public final class PaimonTables {
  private static final String POSITION_PREFIX = "mergesink.position.";

  private PaimonTables() {}

  /**
   * Table {@code table} of database {@code database} in the filesystem catalog on {@code warehouse}.
   * A warehouse on the test S3 server is read through Paimon's Hadoop file IO and Hadoop's S3A, not
   * through the sink's storage.
   */
  public static FileStoreTable load(String warehouse, String database, String table) {
    return load(Map.of("warehouse", warehouse), database, table);
  }

  /**
   * Table {@code table} of database {@code database} in the catalog Paimon opens with
   * {@code catalogOptions} ({@code warehouse}, {@code metastore}, {@code uri}, ...).
   */
  public static FileStoreTable load(Map<String, String> catalogOptions, String database, String table) {
    String warehouse = catalogOptions.get("warehouse");
    CatalogContext context = CatalogContext.create(Options.fromMap(catalogOptions), hadoop(warehouse));
    try (Catalog catalog = CatalogFactory.createCatalog(context)) {
      return (FileStoreTable) catalog.getTable(Identifier.create(database, table));
    } catch (Exception e) {
      throw new IllegalStateException("cannot load Paimon table " + database + "." + table + " from " + catalogOptions, e);
    }
  }

  /**
   * The table at {@code location} (a local path or an {@code s3://} URI on the test S3 server),
   * loaded without a catalog; empty when it has no schema yet.
   */
  public static Optional<FileStoreTable> loadAt(String location) {
    Path path = new Path(location);
    try {
      FileIO io = FileIO.get(path, CatalogContext.create(new Options(), hadoop(location)));
      if (new SchemaManager(io, path).latest().isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(FileStoreTableFactory.create(io, path));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load the Paimon table at " + location, e);
    }
  }

  /** Hadoop settings that reach {@code location}: S3A on the test S3 server for an S3 location. */
  private static Configuration hadoop(String location) {
    Configuration hadoop = new Configuration();
    if (Storages.isS3(location)) {
      TestS3.s3aSettings(TestS3.s3()).forEach(hadoop::set);
    }
    return hadoop;
  }

  /**
   * Every live row of the latest snapshot read with Paimon's reader, values as the engine holds them
   * (strings as {@link String}, decimals as {@link BigDecimal}, dates as days, timestamps as
   * microseconds, binary as {@code byte[]}), converted here, independently of the sink's conversion.
   */
  public static List<Row> engineRows(FileStoreTable table) {
    ReadBuilder read = table.newReadBuilder();
    List<DataField> fields = table.rowType().getFields();
    List<Row> rows = new ArrayList<>();
    try {
      read.newRead().createReader(read.newScan().plan()).forEachRemaining(row -> {
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = row.isNullAt(i) ? null : engineValue(fields.get(i).type(), row, i);
        }
        rows.add(Row.of(values));
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static Object engineValue(DataType type, InternalRow row, int i) {
    return engineValue(type, InternalRow.createFieldGetter(type, i).getFieldOrNull(row));
  }

  /** {@code value}, as Paimon's field and element getters give it, as the engine holds it. */
  private static Object engineValue(DataType type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type.getTypeRoot()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, DATE, BIGINT, FLOAT, DOUBLE, BINARY, VARBINARY -> value;
      case CHAR, VARCHAR -> value.toString();
      case DECIMAL -> ((Decimal) value).toBigDecimal();
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ((Timestamp) value).toMicros();
      case ARRAY -> engineList(((ArrayType) type).getElementType(), (InternalArray) value);
      case MAP -> {
        MapType mapType = (MapType) type;
        InternalMap map = (InternalMap) value;
        List<Object> keys = engineList(mapType.getKeyType(), map.keyArray());
        List<Object> values = engineList(mapType.getValueType(), map.valueArray());
        Map<Object, Object> entries = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
          entries.put(keys.get(i), values.get(i));
        }
        yield entries;
      }
      case ROW -> {
        List<DataField> fields = ((RowType) type).getFields();
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = engineValue(fields.get(i).type(), (InternalRow) value, i);
        }
        yield Row.of(values);
      }
      default -> throw new IllegalArgumentException("the test reader does not read " + type);
    };
  }

  private static List<Object> engineList(DataType elementType, InternalArray array) {
    InternalArray.ElementGetter getter = InternalArray.createElementGetter(elementType);
    List<Object> items = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      items.add(engineValue(elementType, getter.getElementOrNull(array, i)));
    }
    return items;
  }

  /** The engine's schema of the table, converted here from Paimon's types. */
  public static StructType engineSchema(FileStoreTable table) {
    List<StructField> fields = new ArrayList<>();
    for (DataField field : table.rowType().getFields()) {
      fields.add(new StructField(field.name(), engineType(field.type()), field.type().isNullable()));
    }
    return new StructType(fields);
  }

  private static io.mergesink.core.types.DataType engineType(DataType type) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> PrimitiveType.BOOLEAN;
      case TINYINT -> PrimitiveType.BYTE;
      case SMALLINT -> PrimitiveType.SHORT;
      case INTEGER -> PrimitiveType.INTEGER;
      case BIGINT -> PrimitiveType.LONG;
      case FLOAT -> PrimitiveType.FLOAT;
      case DOUBLE -> PrimitiveType.DOUBLE;
      case CHAR, VARCHAR -> PrimitiveType.STRING;
      case BINARY, VARBINARY -> PrimitiveType.BINARY;
      case DATE -> PrimitiveType.DATE;
      case TIMESTAMP_WITHOUT_TIME_ZONE -> PrimitiveType.TIMESTAMP_NTZ;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> PrimitiveType.TIMESTAMP;
      case DECIMAL -> new io.mergesink.core.types.DecimalType(((DecimalType) type).getPrecision(), ((DecimalType) type).getScale());
      case ARRAY -> new io.mergesink.core.types.ArrayType(engineType(((ArrayType) type).getElementType()),
          ((ArrayType) type).getElementType().isNullable());
      case MAP -> new io.mergesink.core.types.MapType(engineType(((MapType) type).getKeyType()),
          engineType(((MapType) type).getValueType()), ((MapType) type).getValueType().isNullable());
      case ROW -> new StructType(((RowType) type).getFields().stream()
          .map(field -> new StructField(field.name(), engineType(field.type()), field.type().isNullable())).toList());
      default -> throw new IllegalArgumentException("the sink creates no Paimon columns of type " + type);
    };
  }

  /**
   * The position {@code id} ({@code <app>:<topic>:<partition>}) as the newest snapshot that records
   * positions and whose rows readers see holds it (a snapshot of another writer, a compaction job,
   * records none; with deletion vectors an {@code APPEND} snapshot's rows show only at its
   * {@code COMPACT} snapshot, which records the same positions, and a snapshot that still holds
   * level-0 files holds rows readers do not see: a commit whose compaction lost to another task's
   * has its positions carried forward by the snapshots after it before its rows are compacted).
   */
  public static Optional<Long> position(FileStoreTable table, String id) {
    SnapshotManager snapshots = table.snapshotManager();
    Long latest = snapshots.latestSnapshotId();
    Long earliest = snapshots.earliestSnapshotId();
    boolean levelZeroHidden = table.coreOptions().deletionVectorsEnabled();
    for (long at = latest == null ? 0 : latest; latest != null && at >= earliest; at--) {
      Snapshot snapshot = snapshots.snapshot(at);
      if (levelZeroHidden && (snapshot.commitKind() == Snapshot.CommitKind.APPEND || holdsLevelZero(table, snapshot))) {
        continue; // its rows show only once a COMPACT snapshot takes them out of level 0: readers do not see them yet
      }
      Map<String, String> properties = snapshot.properties();
      if (properties != null && properties.keySet().stream().anyMatch(key -> key.startsWith(POSITION_PREFIX))) {
        return Optional.ofNullable(properties.get(POSITION_PREFIX + id)).map(Long::parseLong);
      }
    }
    return Optional.empty();
  }

  /** The deletion-vector files the latest snapshot's splits read with their data files (rows replaced or deleted since written). */
  public static List<String> liveDeletionFiles(FileStoreTable table) {
    List<String> files = new ArrayList<>();
    for (Split split : table.newReadBuilder().newScan().plan().splits()) {
      for (DeletionFile deletion : ((DataSplit) split).deletionFiles().orElse(List.of())) {
        if (deletion != null) {
          files.add(deletion.path());
        }
      }
    }
    return files.stream().distinct().toList();
  }

  /** Whether {@code snapshot} of {@code table} holds data files in level 0. */
  private static boolean holdsLevelZero(FileStoreTable table, Snapshot snapshot) {
    return !table.store().newScan().withSnapshot(snapshot).withLevelFilter(level -> level == 0).plan().files().isEmpty();
  }

  /** The data and deletion-vector files of the latest snapshot's splits that are missing. */
  public static List<String> missingFiles(FileStoreTable table) {
    List<String> missing = new ArrayList<>();
    try {
      for (Split split : table.newReadBuilder().newScan().plan().splits()) {
        DataSplit data = (DataSplit) split;
        for (DataFileMeta file : data.dataFiles()) {
          Path path = new Path(data.bucketPath() + "/" + file.fileName());
          if (!table.fileIO().exists(path)) {
            missing.add("data file " + path);
          }
        }
        for (DeletionFile deletion : data.deletionFiles().orElse(List.of())) {
          if (deletion != null && !table.fileIO().exists(new Path(deletion.path()))) {
            missing.add("deletion vector file " + deletion.path());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return missing.stream().distinct().toList();
  }

  /**
   * {@code table} as of snapshot {@code snapshotId}: time travel with the table option
   * {@code scan.snapshot-id}, as Spark's {@code VERSION AS OF} and Flink's hint read it.
   */
  public static FileStoreTable at(FileStoreTable table, long snapshotId) {
    return table.copy(Map.of("scan.snapshot-id", Long.toString(snapshotId)));
  }

  /** Every row of the latest snapshot (of the {@linkplain #at scan snapshot}), strings as {@link String}, decimals as {@link BigDecimal}. */
  public static List<Row> readRows(FileStoreTable table) {
    ReadBuilder read = table.newReadBuilder();
    List<DataField> fields = table.rowType().getFields();
    List<Row> rows = new ArrayList<>();
    try {
      read.newRead().createReader(read.newScan().plan()).forEachRemaining(row -> rows.add(toRow(fields, row)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** A change of a table's changelog: Paimon's row kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}) and the row. */
  public record Change(RowKind kind, Row row) {}

  /**
   * The table's changelog from its first snapshot to its latest, as Paimon's streaming readers read
   * it: each snapshot's changelog files (with {@code changelog-producer=lookup}, those its compaction
   * wrote), in snapshot order.
   */
  public static List<Change> changelog(FileStoreTable table) {
    Long latest = table.snapshotManager().latestSnapshotId();
    if (latest == null) {
      return List.of();
    }
    ReadBuilder read = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")).newReadBuilder();
    StreamTableScan scan = read.newStreamScan();
    TableRead reader = read.newRead();
    List<DataField> fields = table.rowType().getFields();
    List<Change> changes = new ArrayList<>();
    try {
      for (long plans = 0; plans <= latest + 1; plans++) {
        reader.createReader(scan.plan().splits()).forEachRemaining(row -> changes.add(new Change(row.getRowKind(), toRow(fields, row))));
        Long next = scan.checkpoint();
        if (next != null && next > latest) {
          return changes;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("the streaming scan of " + table.location() + " did not reach snapshot " + latest);
  }

  private static Row toRow(List<DataField> fields, InternalRow row) {
    Object[] values = new Object[fields.size()];
    for (int i = 0; i < values.length; i++) {
      DataType type = fields.get(i).type();
      if (row.isNullAt(i)) {
        continue;
      }
      values[i] = switch (type.getTypeRoot()) {
        case INTEGER -> row.getInt(i);
        case BIGINT -> row.getLong(i);
        case VARCHAR -> row.getString(i).toString();
        case BOOLEAN -> row.getBoolean(i);
        case DOUBLE -> row.getDouble(i);
        case DECIMAL -> row.getDecimal(i, ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale()).toBigDecimal();
        default -> throw new IllegalArgumentException("the test reader does not read " + type);
      };
    }
    return Row.of(values);
  }

  /** The positions the latest snapshot records in its properties, by id. */
  public static Map<String, Long> positions(FileStoreTable table) {
    Map<String, Long> positions = new TreeMap<>();
    Snapshot latest = table.snapshotManager().latestSnapshot();
    if (latest != null && latest.properties() != null) {
      latest.properties().forEach((key, value) -> {
        if (key.startsWith(POSITION_PREFIX)) {
          positions.put(key.substring(POSITION_PREFIX.length()), Long.parseLong(value));
        }
      });
    }
    return positions;
  }
}
