package io.mergesink.quickstart;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Reads the demo's Iceberg table with Iceberg's generic reader (deletes applied), through the
 * catalog the sink config names: the snapshot's sequence number as the version, live rows, and the
 * Kafka offsets the sink records in snapshot summaries
 * ({@value #POSITION_PREFIX}{@code <connector>:<topic>:<partition>}).
 */
final class IcebergTableReader implements TableReader {
  /** Snapshot summary key prefix of a Kafka position the sink recorded (see docs/iceberg.md, "A commit"). */
  static final String POSITION_PREFIX = "mergesink.position.";
  private static final String CATALOG_NAME = "iceberg.catalog";
  private static final String CATALOG_PROPERTY_PREFIX = CATALOG_NAME + ".";
  /** Spark's Iceberg runtime, and a SQLite driver for the demo's catalog (any recent version reads it). */
  private static final String SPARK_PACKAGES =
      "org.apache.iceberg:iceberg-spark-runtime-4.0_2.13:1.10.0,org.xerial:sqlite-jdbc:3.53.4.0";
  /** The sink's default of {@value #CATALOG_NAME}. */
  private static final String DEFAULT_CATALOG_NAME = "iceberg";

  private final String tablePath;
  private final String catalogName;
  private final Map<String, String> catalogProperties;
  private final TableIdentifier identifier;
  private final String connectorName;
  private final String positionPrefix;
  private final Catalog catalog;

  /**
   * Opens the catalog of {@code sinkConfig} ({@value #CATALOG_NAME} and its {@code iceberg.catalog.*}
   * properties), as the sink opens it.
   *
   * @param tablePath where the table's files are
   * @param table the table name the sink routes to ({@code public/orders}: namespace {@code public}, table {@code orders})
   * @param topic the topic whose partitions' offsets {@link TableState#committedOffsets()} holds
   */
  IcebergTableReader(Map<String, String> sinkConfig, String tablePath, String table, String connectorName, String topic) {
    this.tablePath = tablePath;
    this.catalogName = sinkConfig.getOrDefault(CATALOG_NAME, DEFAULT_CATALOG_NAME);
    Map<String, String> properties = new LinkedHashMap<>();
    sinkConfig.forEach((key, value) -> {
      if (key.startsWith(CATALOG_PROPERTY_PREFIX)) {
        properties.put(key.substring(CATALOG_PROPERTY_PREFIX.length()), value);
      }
    });
    this.catalogProperties = Map.copyOf(properties);
    int slash = table.lastIndexOf('/');
    this.identifier = TableIdentifier.of(Namespace.of(table.substring(0, slash).split("/")), table.substring(slash + 1));
    this.connectorName = connectorName;
    this.positionPrefix = POSITION_PREFIX + connectorName + ":" + topic + ":";
    this.catalog = CatalogUtil.buildIcebergCatalog(catalogName, properties, new Configuration());
  }

  @Override
  public String format() {
    return "Iceberg";
  }

  @Override
  public String path() {
    return tablePath;
  }

  /** Whether the catalog has the table. */
  @Override
  public boolean exists() {
    return catalog.tableExists(identifier);
  }

  @Override
  public Optional<TableState> state() {
    Table table;
    try {
      table = catalog.loadTable(identifier);
    } catch (NoSuchTableException e) {
      return Optional.empty();
    }
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return Optional.of(new TableState(0, 0, Map.of()));
    }
    long rows = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).useSnapshot(current.snapshotId()).build()) {
      for (Record ignored : records) {
        rows++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Iceberg table " + identifier + " at " + tablePath, e);
    }
    return Optional.of(new TableState(current.sequenceNumber(), rows, offsets(table, current)));
  }

  @Override
  public List<List<String>> rows() {
    Table table = catalog.loadTable(identifier);
    List<Types.NestedField> columns = table.schema().columns();
    List<List<String>> lines = new ArrayList<>();
    lines.add(columns.stream().map(Types.NestedField::name).toList());
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
          cells.add(format(record.get(i)));
        }
        lines.add(cells);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Iceberg table " + identifier + " at " + tablePath, e);
    }
    return lines;
  }

  @Override
  public String positionsRecordedAs() {
    return "Iceberg snapshot summaries, keys " + POSITION_PREFIX + connectorName + ":<topic>:<partition>";
  }

  /** Spark's Iceberg catalog configured as the sink's, and where the table's files are. */
  @Override
  public List<String> howToRead(String localPath) {
    List<String> lines = new ArrayList<>();
    lines.add("Files: " + localPath + "/data (Parquet data files, deletion vectors in Puffin files) and "
        + localPath + "/metadata (table metadata, manifests).");
    lines.add("Catalog '" + catalogName + "': " + catalogProperties.get("type") + ", " + catalogProperties.get("uri"));
    lines.add("Read it with Spark (an Iceberg runtime 1.8 or later reads deletion vectors), e.g.:");
    lines.add("  pyspark --packages " + SPARK_PACKAGES + " \\");
    lines.add("    --conf spark.sql.extensions=org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions \\");
    lines.add("    --conf spark.sql.catalog." + catalogName + "=org.apache.iceberg.spark.SparkCatalog \\");
    List<String> properties = new TreeMap<>(catalogProperties).entrySet().stream()
        .map(property -> "    --conf spark.sql.catalog." + catalogName + "." + property.getKey() + "=" + property.getValue())
        .toList();
    for (int i = 0; i < properties.size(); i++) {
      lines.add(properties.get(i) + (i < properties.size() - 1 ? " \\" : ""));
    }
    lines.add("  spark.sql(\"SELECT * FROM " + catalogName + "." + identifier + "\").show()");
    return lines;
  }

  @Override
  public void close() {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot close the Iceberg catalog " + catalogName, e);
      }
    }
  }

  /** The positions of the newest snapshot, from {@code current} back, that records any (other engines' snapshots record none). */
  private Map<Integer, Long> offsets(Table table, Snapshot current) {
    for (Snapshot snapshot : SnapshotUtil.ancestorsOf(current.snapshotId(), table::snapshot)) {
      Map<Integer, Long> offsets = new TreeMap<>();
      snapshot.summary().forEach((key, value) -> {
        if (key.startsWith(positionPrefix)) {
          offsets.put(Integer.parseInt(key.substring(positionPrefix.length())), Long.parseLong(value));
        }
      });
      boolean recordsPositions = snapshot.summary().keySet().stream().anyMatch(key -> key.startsWith(POSITION_PREFIX));
      if (recordsPositions) {
        return offsets;
      }
    }
    return Map.of();
  }

  private static String format(Object value) {
    if (value instanceof OffsetDateTime timestamp) {
      return timestamp.toInstant().toString();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    return String.valueOf(value);
  }
}
