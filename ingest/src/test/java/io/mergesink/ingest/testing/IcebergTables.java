package io.mergesink.ingest.testing;

import io.mergesink.core.data.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

/**
 * Iceberg tables of a Hadoop catalog read with Iceberg's own generic reader (deletes applied): the
 * independent reader of the Iceberg tables the tests write.
 */
public final class IcebergTables {
  private IcebergTables() {}

  /** The table {@code namespace.name} of the Hadoop catalog at {@code warehouse}. */
  public static Table load(String warehouse, String namespace, String name) {
    try (HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse)) {
      return catalog.loadTable(TableIdentifier.of(namespace, name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The table of a Hadoop catalog at {@code location} ({@code <warehouse>/<namespace>/<name>}). */
  public static Table load(String location) {
    return new HadoopTables(new Configuration()).load(location);
  }

  /**
   * Every live row of the current snapshot, values in schema order as Iceberg's generic reader gives
   * them (without the row positions it reads to apply position deletes).
   */
  public static List<Row> readRows(Table table) {
    List<Row> rows = new ArrayList<>();
    int width = table.schema().columns().size();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
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
