package io.mergesink.ingest.testing;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.testing.TestS3;
import io.mergesink.ingest.format.iceberg.StorageFileIO;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * Iceberg tables read with Iceberg's own generic reader (deletes applied): the independent reader of
 * the Iceberg tables the tests write. A table is loaded through the catalog that holds it: the
 * tests' JDBC catalog of its warehouse ({@link #jdbcCatalog}) when there is one, else the Hadoop
 * catalog of its directory.
 */
public final class IcebergTables {
  /**
   * Where the tests' JDBC catalogs keep their databases, one file per warehouse: a directory of this
   * JVM's own. An S3 warehouse is named after its bucket alone, and the S3 server the tests start keeps
   * nothing from one run to the next, so a database kept longer would point at metadata that is gone.
   */
  private static final Path CATALOGS = catalogsDirectory();
  /** The catalog name the sink gives its catalog by default ({@code iceberg.catalog}): a JDBC catalog keeps its tables under it. */
  private static final String SINK_CATALOG = "iceberg";
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:/*");

  private IcebergTables() {}

  /**
   * The options of a sink whose Iceberg tables under {@code warehouse} (its table root) live in a JDBC
   * catalog of their own, a SQLite database file named after the warehouse's path, which
   * {@link #load(String)} finds again from a table's location. The scheme does not count:
   * {@code faulty:///dir} and {@code /dir}, {@code faulty-s3://b/t} and {@code s3://b/t} share a catalog,
   * so a table written under a fault-injecting root is read under the real one.
   */
  public static Map<String, String> jdbcCatalog(String warehouse) {
    return Map.of("iceberg.catalog.type", "jdbc", "iceberg.catalog.uri", "jdbc:sqlite:" + database(warehouse));
  }

  private static Path catalogsDirectory() {
    try {
      return Files.createTempDirectory("mergesink-iceberg-catalogs-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path database(String warehouse) {
    String path = SCHEME.matcher(warehouse).replaceFirst("").replaceAll("^/+|/+$", "");
    return CATALOGS.resolve(path.replaceAll("[^A-Za-z0-9._-]", "_") + ".db");
  }

  /** The table {@code namespace.name} of the Hadoop catalog at {@code warehouse}. */
  public static Table load(String warehouse, String namespace, String name) {
    try (HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse)) {
      return catalog.loadTable(TableIdentifier.of(namespace, name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The table at {@code location} ({@code <warehouse>/<namespace>/<name>}): through the tests' JDBC
   * catalog of the warehouse when it has one (its files read through the sink's storage, which
   * serves the tests' fault-injecting schemes too), else the Hadoop catalog's table there.
   *
   * @throws org.apache.iceberg.exceptions.NoSuchTableException the catalog has no such table
   */
  public static Table load(String location) {
    String[] parts = location.replaceAll("/+$", "").split("/");
    String warehouse = location.substring(0, location.lastIndexOf(parts[parts.length - 2]) - 1);
    Path database = database(warehouse);
    if (!Files.exists(database)) {
      return new HadoopTables(new Configuration()).load(location);
    }
    StorageOptions storage = location.contains("s3://") ? StorageOptions.defaults().withS3(TestS3.s3Options())
        : StorageOptions.defaults();
    try (JdbcCatalog catalog = new JdbcCatalog(properties -> new StorageFileIO(storage), null, false)) {
      catalog.setConf(new Configuration());
      catalog.initialize(SINK_CATALOG, Map.of("uri", "jdbc:sqlite:" + database, "warehouse", warehouse));
      return catalog.loadTable(TableIdentifier.of(parts[parts.length - 2], parts[parts.length - 1]));
    }
  }

  /**
   * Every live row of the current snapshot, values in schema order as Iceberg's generic reader gives
   * them (without the row positions it reads to apply position deletes).
   */
  public static List<Row> readRows(Table table) {
    return readRows(table, table.currentSnapshot() == null ? -1 : table.currentSnapshot().snapshotId());
  }

  /** As {@link #readRows(Table)}, of snapshot {@code snapshotId} (time travel); -1: the table has no snapshot. */
  public static List<Row> readRows(Table table, long snapshotId) {
    List<Row> rows = new ArrayList<>();
    int width = table.schema().columns().size();
    if (snapshotId == -1) {
      return rows;
    }
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).useSnapshot(snapshotId).build()) {
      for (Record record : records) {
        Object[] values = new Object[width];
        for (int i = 0; i < values.length; i++) {
          values[i] = record.get(i);
        }
        rows.add(Row.of(values));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The Kafka positions MergeSink recorded in the newest snapshot that records any: position id → offset. */
  public static Map<String, Long> positions(Table table) {
    for (Snapshot snapshot = table.currentSnapshot(); snapshot != null;
        snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
      Map<String, Long> positions = new TreeMap<>();
      snapshot.summary().forEach((key, value) -> {
        if (key.startsWith("mergesink.position.")) {
          positions.put(key.substring("mergesink.position.".length()), Long.parseLong(value));
        }
      });
      if (!positions.isEmpty()) {
        return positions;
      }
    }
    return Map.of();
  }

  /** The delete files that apply to the live data files of the current snapshot. */
  public static List<DeleteFile> liveDeleteFiles(Table table) {
    List<DeleteFile> deletes = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        task.deletes().stream().filter(delete -> deletes.stream().noneMatch(known -> known.location().equals(delete.location())))
            .forEach(deletes::add);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return deletes;
  }

  /** Whether any delete file of the current snapshot is an equality delete file. */
  public static boolean hasEqualityDeletes(Table table) {
    return liveDeleteFiles(table).stream().anyMatch(delete -> delete.content() == FileContent.EQUALITY_DELETES);
  }

  /** Key column value → {@code _row_id} of each live row, as Iceberg's generic reader gives the row lineage. */
  public static Map<Object, Long> rowIds(Table table, String keyColumn) {
    Map<Object, Long> ids = new HashMap<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).project(MetadataColumns.schemaWithRowLineage(table.schema()))
        .build()) {
      rows.forEach(row -> ids.put(row.getField(keyColumn), (Long) row.getField(MetadataColumns.ROW_ID.name())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ids;
  }

  /** What a compaction of another engine does: every live row rewritten into one new data file, without MergeSink's summary. */
  public static void rewriteEveryDataFile(Table table) throws IOException {
    Set<DataFile> oldFiles = new HashSet<>();
    Set<DeleteFile> oldDeletes = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> {
        oldFiles.add(task.file());
        oldDeletes.addAll(task.deletes());
      });
    }
    OutputFileFactory outputs = OutputFileFactory.builderFor(table, 9, 9).format(FileFormat.PARQUET).build();
    DataWriter<Record> writer = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build()
        .newDataWriter(outputs.newOutputFile(), table.spec(), null);
    try (writer) {
      for (Row row : readRows(table)) {
        GenericRecord record = GenericRecord.create(table.schema());
        for (int i = 0; i < row.size(); i++) {
          record.set(i, row.get(i));
        }
        writer.write(record);
      }
    }
    // validated from the snapshot read: the deletes of the files it replaces are rewritten with them
    table.newRewrite().validateFromSnapshot(table.currentSnapshot().snapshotId())
        .rewriteFiles(oldFiles, oldDeletes, Set.of(writer.toDataFile()), Set.of()).commit();
  }
}
