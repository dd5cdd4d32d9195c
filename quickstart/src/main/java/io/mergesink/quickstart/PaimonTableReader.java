package io.mergesink.quickstart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.TimestampType;
import org.apache.paimon.utils.SnapshotManager;

/**
 * Reads the demo's Paimon table with Paimon's own reader (deletion vectors applied), through a
 * filesystem catalog on the table root, as the sink writes it: the latest snapshot's id as the
 * version, live rows, and the Kafka offsets the sink records in snapshot properties
 * ({@value #POSITION_PREFIX}{@code <connector>:<topic>:<partition>}).
 */
final class PaimonTableReader implements TableReader {
  /** Snapshot property prefix of a Kafka position the sink recorded (see docs/paimon.md, "Exactly once"). */
  static final String POSITION_PREFIX = "mergesink.position.";
  /** The suffix of a database's directory in a filesystem catalog. */
  private static final String DATABASE_SUFFIX = ".db";
  /** Paimon's Spark runtime of the Paimon version the sink writes with. */
  private static final String SPARK_PACKAGE = "org.apache.paimon:paimon-spark-3.5:1.4.2";
  private static final String SPARK_CATALOG = "paimon";

  private final String root;
  private final String tablePath;
  private final Identifier identifier;
  private final String connectorName;
  private final String positionPrefix;
  private final Catalog catalog;

  /**
   * @param root the table root, the catalog's warehouse
   * @param table the table name the sink routes to ({@code public/orders}: database {@code public}, table {@code orders})
   * @param topic the topic whose partitions' offsets {@link TableState#committedOffsets()} holds
   */
  PaimonTableReader(String root, String table, String connectorName, String topic) {
    this.root = root;
    this.tablePath = location(root, table);
    int slash = table.indexOf('/');
    this.identifier = Identifier.create(table.substring(0, slash), table.substring(slash + 1));
    this.connectorName = connectorName;
    this.positionPrefix = POSITION_PREFIX + connectorName + ":" + topic + ":";
    // no table cache: the demo reads the table again and again while the sink commits to it
    this.catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(Map.of("warehouse", root, "cache-enabled",
        "false"))));
  }

  /** Where the filesystem catalog on {@code root} keeps table {@code database/table}: {@code <root>/<database>.db/<table>}. */
  static String location(String root, String table) {
    int slash = table.indexOf('/');
    return root + "/" + table.substring(0, slash) + DATABASE_SUFFIX + table.substring(slash);
  }

  @Override
  public String format() {
    return "Paimon";
  }

  @Override
  public String path() {
    return tablePath;
  }

  /** Whether the catalog has the table. */
  @Override
  public boolean exists() {
    return load().isPresent();
  }

  /**
   * The newest snapshot whose rows readers see, with those rows and the positions it records. With
   * deletion vectors a reader skips level 0, so the rows of an {@code APPEND} snapshot show only
   * once the {@code COMPACT} snapshot of its compaction lands; the positions of the
   * {@code APPEND} snapshot alone would claim rows no reader returns yet.
   */
  @Override
  public Optional<TableState> state() {
    Optional<FileStoreTable> loaded = load();
    if (loaded.isEmpty()) {
      return Optional.empty();
    }
    FileStoreTable table = loaded.get();
    Optional<Snapshot> visible = newestVisible(table);
    if (visible.isEmpty()) {
      return Optional.of(new TableState(0, 0, Map.of()));
    }
    Snapshot snapshot = visible.get();
    long rows = read(at(table, snapshot), row -> row).size();
    return Optional.of(new TableState(snapshot.id(), rows, offsets(table.snapshotManager(), snapshot)));
  }

  @Override
  public List<List<String>> rows() {
    FileStoreTable table = load().orElseThrow(() -> new IllegalStateException("no Paimon table " + identifier + " at " + tablePath));
    List<DataField> fields = table.rowType().getFields();
    List<List<String>> lines = new ArrayList<>();
    lines.add(fields.stream().map(DataField::name).toList());
    newestVisible(table).ifPresent(snapshot -> lines.addAll(read(at(table, snapshot), row -> cells(fields, row))));
    return lines;
  }

  @Override
  public String positionsRecordedAs() {
    return "Paimon snapshot properties, keys " + POSITION_PREFIX + connectorName + ":<topic>:<partition>";
  }

  /** Spark's Paimon catalog on the warehouse, and where the table's files are. */
  @Override
  public List<String> howToRead(String localPath) {
    return List.of(
        "Files: " + localPath + "/bucket-* (data files, LSM levels per bucket), " + localPath + "/index (deletion vectors),",
        "       " + localPath + "/snapshot, /manifest and /schema (the table's metadata).",
        "Catalog: Paimon's filesystem catalog, warehouse " + root,
        "Read it with Spark (Paimon's Spark runtime applies deletion vectors), e.g.:",
        "  pyspark --packages " + SPARK_PACKAGE + " \\",
        "    --conf spark.sql.extensions=org.apache.paimon.spark.extensions.PaimonSparkSessionExtensions \\",
        "    --conf spark.sql.catalog." + SPARK_CATALOG + "=org.apache.paimon.spark.SparkCatalog \\",
        "    --conf spark.sql.catalog." + SPARK_CATALOG + ".warehouse=file:" + root,
        "  spark.sql(\"SELECT * FROM " + SPARK_CATALOG + "." + identifier.getDatabaseName() + "." + identifier.getObjectName()
            + "\").show()",
        "or Flink SQL: CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' = 'file:" + root + "');");
  }

  @Override
  public void close() {
    try {
      catalog.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot close the Paimon catalog on " + root, e);
    }
  }

  private Optional<FileStoreTable> load() {
    try {
      return Optional.of((FileStoreTable) catalog.getTable(identifier));
    } catch (Catalog.TableNotExistException e) {
      return Optional.empty();
    }
  }

  /** The newest snapshot whose rows every reader sees: the latest one, or with deletion vectors the latest that is not an {@code APPEND}. */
  private static Optional<Snapshot> newestVisible(FileStoreTable table) {
    SnapshotManager snapshots = table.snapshotManager();
    Snapshot latest = snapshots.latestSnapshot();
    if (latest == null || !table.coreOptions().deletionVectorsEnabled()) {
      return Optional.ofNullable(latest);
    }
    Long earliest = snapshots.earliestSnapshotId();
    for (long id = latest.id(); earliest != null && id >= earliest; id--) {
      Snapshot snapshot = id == latest.id() ? latest : snapshots.snapshotExists(id) ? snapshots.snapshot(id) : null;
      if (snapshot != null && snapshot.commitKind() != Snapshot.CommitKind.APPEND) {
        return Optional.of(snapshot);
      }
    }
    return Optional.empty();
  }

  /** The table as of {@code snapshot}: a scan of it plans that snapshot, not whichever is latest when it runs. */
  private static FileStoreTable at(FileStoreTable table, Snapshot snapshot) {
    return table.copy(Map.of(CoreOptions.SCAN_SNAPSHOT_ID.key(), Long.toString(snapshot.id())));
  }

  /** {@code convert} of every live row of the table's scan snapshot, read with Paimon's reader (which reuses its row objects). */
  private <T> List<T> read(FileStoreTable table, Function<InternalRow, T> convert) {
    ReadBuilder read = table.newReadBuilder();
    List<T> rows = new ArrayList<>();
    try {
      read.newRead().createReader(read.newScan().plan()).forEachRemaining(row -> rows.add(convert.apply(row)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Paimon table " + identifier + " at " + tablePath, e);
    }
    return rows;
  }

  /** The row's values for the console: dates and timestamps as ISO-8601, decimals as plain numbers. */
  private static List<String> cells(List<DataField> fields, InternalRow row) {
    List<String> cells = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      cells.add(row.isNullAt(i) ? "null" : text(fields.get(i).type(), row, i));
    }
    return cells;
  }

  private static String text(DataType type, InternalRow row, int i) {
    return switch (type.getTypeRoot()) {
      case DATE -> LocalDate.ofEpochDay(row.getInt(i)).toString();
      case DECIMAL -> row.getDecimal(i, ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale()).toBigDecimal()
          .toPlainString();
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> row.getTimestamp(i, ((LocalZonedTimestampType) type).getPrecision()).toInstant().toString();
      case TIMESTAMP_WITHOUT_TIME_ZONE -> row.getTimestamp(i, ((TimestampType) type).getPrecision()).toLocalDateTime().toString();
      case INTEGER -> Integer.toString(row.getInt(i));
      case BIGINT -> Long.toString(row.getLong(i));
      case SMALLINT -> Short.toString(row.getShort(i));
      case BOOLEAN -> Boolean.toString(row.getBoolean(i));
      case DOUBLE -> Double.toString(row.getDouble(i));
      case FLOAT -> Float.toString(row.getFloat(i));
      default -> row.getString(i).toString();
    };
  }

  /** The positions of the newest snapshot, from {@code latest} back, that records any (other writers' snapshots record none). */
  private Map<Integer, Long> offsets(SnapshotManager snapshots, Snapshot latest) {
    Long earliest = snapshots.earliestSnapshotId();
    for (long id = latest.id(); earliest != null && id >= earliest; id--) {
      Map<String, String> properties = snapshots.snapshotExists(id) ? snapshots.snapshot(id).properties() : null;
      if (properties == null || properties.keySet().stream().noneMatch(key -> key.startsWith(POSITION_PREFIX))) {
        continue;
      }
      Map<Integer, Long> offsets = new TreeMap<>();
      properties.forEach((key, value) -> {
        if (key.startsWith(positionPrefix)) {
          offsets.put(Integer.parseInt(key.substring(positionPrefix.length())), Long.parseLong(value));
        }
      });
      return offsets;
    }
    return Map.of();
  }
}
