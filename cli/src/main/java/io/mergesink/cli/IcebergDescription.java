package io.mergesink.cli;

import io.mergesink.ingest.format.FormatTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * {@code mergesink describe} of an Iceberg table: the keys of the Delta description where the
 * concepts match (schema, key, files, rows, small files), and Iceberg's own (format version,
 * partition spec, current snapshot, delete files: deletion vectors, position and equality deletes).
 */
final class IcebergDescription {
  private IcebergDescription() {}

  /**
   * The description of the current snapshot's live files.
   *
   * @param dvRatio a data file whose deletes hide more than this share of its rows counts as dense
   */
  static Map<String, Object> describe(FormatTable table, Table iceberg, long targetSizeBytes, double dvRatio) throws IOException {
    LiveFiles files = files(iceberg);
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("table", table.location());
    d.put("format", "iceberg");
    d.put("formatVersion", iceberg instanceof HasTableOperations ops ? ops.operations().current().formatVersion() : null);
    d.put("identifier", iceberg.name());
    d.put("version", table.version());
    Snapshot current = iceberg.currentSnapshot();
    Map<String, Object> snapshot = new LinkedHashMap<>();
    snapshot.put("id", current == null ? null : current.snapshotId());
    snapshot.put("sequenceNumber", current == null ? null : current.sequenceNumber());
    snapshot.put("timestamp", current == null ? null : Instant.ofEpochMilli(current.timestampMillis()).toString());
    snapshot.put("operation", current == null ? null : current.operation());
    d.put("currentSnapshot", snapshot);
    List<Map<String, Object>> columns = new ArrayList<>();
    for (Types.NestedField field : iceberg.schema().columns()) {
      Map<String, Object> column = new LinkedHashMap<>();
      column.put("name", field.name());
      column.put("type", field.type().toString());
      column.put("nullable", field.isOptional());
      column.put("fieldId", field.fieldId());
      columns.add(column);
    }
    d.put("schema", columns);
    d.put("primaryKey", table.recordedKey());
    List<Map<String, Object>> partitionFields = new ArrayList<>();
    for (PartitionField field : iceberg.spec().fields()) {
      Map<String, Object> partition = new LinkedHashMap<>();
      partition.put("name", field.name());
      partition.put("transform", field.transform().toString());
      partition.put("source", iceberg.schema().findColumnName(field.sourceId()));
      partitionFields.add(partition);
    }
    d.put("partitionSpec", partitionFields);
    d.put("properties", iceberg.properties());
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("count", files.dataFiles.size());
    counts.put("bytes", files.dataFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum());
    d.put("files", counts);
    long physical = files.dataFiles.stream().mapToLong(DataFile::recordCount).sum();
    long deleted = files.deleteFiles.stream().filter(f -> f.content() == FileContent.POSITION_DELETES).mapToLong(DeleteFile::recordCount).sum();
    boolean equalityDeletes = files.deleteFiles.stream().anyMatch(f -> f.content() == FileContent.EQUALITY_DELETES);
    Map<String, Object> rows = new LinkedHashMap<>();
    rows.put("live", equalityDeletes ? null : physical - deleted); // which rows equality deletes hide takes reading them
    rows.put("physical", physical);
    rows.put("deleted", deleted);
    d.put("rows", rows);
    d.put("deletes", deletes(files, physical, deleted, dvRatio));
    List<Long> small = files.dataFiles.stream().map(DataFile::fileSizeInBytes).filter(size -> size < targetSizeBytes).sorted().toList();
    d.put("smallFiles", DescribeCommand.smallFiles(small, targetSizeBytes));
    d.put("snapshots", sizeOf(iceberg.snapshots()));
    d.put("positions", table.positionIds().size());
    return d;
  }

  /**
   * Delete files by kind, and the share of each data file's rows its file-scoped position deletes
   * (deletion vectors, the sink's v2 delete files) hide; rows of equality deletes are not counted.
   */
  private static Map<String, Object> deletes(LiveFiles files, long physical, long deleted, double dvRatio) {
    int deletionVectors = 0;
    int positionDeleteFiles = 0;
    int equalityDeleteFiles = 0;
    for (DeleteFile delete : files.deleteFiles) {
      if (delete.content() == FileContent.EQUALITY_DELETES) {
        equalityDeleteFiles++;
      } else if (delete.format() == FileFormat.PUFFIN) {
        deletionVectors++;
      } else {
        positionDeleteFiles++;
      }
    }
    int withDeletes = 0;
    int dense = 0;
    double maxFraction = 0;
    for (Map.Entry<DataFile, Long> hidden : files.deletedByFile.entrySet()) {
      withDeletes++;
      double fraction = hidden.getKey().recordCount() == 0 ? 0 : (double) hidden.getValue() / hidden.getKey().recordCount();
      maxFraction = Math.max(maxFraction, fraction);
      if (fraction > dvRatio) {
        dense++;
      }
    }
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("deleteFiles", files.deleteFiles.size());
    d.put("deletionVectors", deletionVectors);
    d.put("positionDeleteFiles", positionDeleteFiles);
    d.put("equalityDeleteFiles", equalityDeleteFiles);
    d.put("dataFilesWithDeletes", withDeletes);
    d.put("deletedRows", deleted);
    d.put("deletedRatio", physical == 0 ? 0.0 : (double) deleted / physical);
    d.put("maxDeletedFraction", maxFraction);
    d.put("denseRatio", dvRatio);
    d.put("denseFiles", dense);
    return d;
  }

  @SuppressWarnings("unchecked")
  static void printText(PrintWriter out, Table iceberg, Map<String, Object> d) {
    Map<String, Object> snapshot = (Map<String, Object>) d.get("currentSnapshot");
    Map<String, Object> files = (Map<String, Object>) d.get("files");
    Map<String, Object> rows = (Map<String, Object>) d.get("rows");
    Map<String, Object> deletes = (Map<String, Object>) d.get("deletes");
    out.printf("table        %s%n", d.get("table"));
    out.printf("format       iceberg, format version %s (%s)%n", d.get("formatVersion"), d.get("identifier"));
    out.printf("snapshot     %s, sequence number %s, %s at %s%n", orNone(snapshot.get("id")), orNone(snapshot.get("sequenceNumber")),
        orNone(snapshot.get("operation")), orNone(snapshot.get("timestamp")));
    out.println("schema");
    for (Types.NestedField field : iceberg.schema().columns()) {
      out.printf("  %-20s %s%s%n", field.name(), field.type(), field.isOptional() ? "" : " not null");
    }
    List<String> key = (List<String>) d.get("primaryKey");
    out.printf("primary key  %s%n", key.isEmpty() ? "(none)" : String.join(", ", key) + " (identifier fields)");
    List<Map<String, Object>> partitions = (List<Map<String, Object>>) d.get("partitionSpec");
    if (!partitions.isEmpty()) {
      out.printf("partitioned  %s%n", String.join(", ", partitions.stream().map(p -> p.get("transform") + "(" + p.get("source") + ")").toList()));
    }
    out.printf("files        %,d (%s)%n", (Integer) files.get("count"), Sizes.format((Long) files.get("bytes")));
    out.printf("rows         %s live (%,d physical, %,d deleted by position%s)%n",
        rows.get("live") == null ? "?" : String.format(Locale.ROOT, "%,d", (Long) rows.get("live")), (Long) rows.get("physical"),
        (Long) rows.get("deleted"), rows.get("live") == null ? ", more by equality deletes" : "");
    out.printf(Locale.ROOT, "deletes      %,d delete files (%d deletion vectors, %d position delete files, %d equality delete files),"
        + " deleted ratio %.2f, max deleted fraction %.2f, %d files above %.2f%n", (Integer) deletes.get("deleteFiles"),
        (Integer) deletes.get("deletionVectors"), (Integer) deletes.get("positionDeleteFiles"), (Integer) deletes.get("equalityDeleteFiles"),
        (Double) deletes.get("deletedRatio"), (Double) deletes.get("maxDeletedFraction"), (Integer) deletes.get("denseFiles"),
        (Double) deletes.get("denseRatio"));
    DescribeCommand.printSmallFiles(out, d);
    out.printf("snapshots    %s%n", d.get("snapshots"));
    out.printf("positions    %s%n", d.get("positions"));
  }

  private static Object orNone(Object value) {
    return value == null ? "(none)" : value;
  }

  private static int sizeOf(Iterable<?> items) {
    int size = 0;
    for (Object ignored : items) {
      size++;
    }
    return size;
  }

  /** The live data files of the current snapshot, their delete files (each once), and the rows each file's file-scoped position deletes hide. */
  private record LiveFiles(List<DataFile> dataFiles, List<DeleteFile> deleteFiles, Map<DataFile, Long> deletedByFile) {}

  private static LiveFiles files(Table iceberg) throws IOException {
    List<DataFile> dataFiles = new ArrayList<>();
    Map<String, DeleteFile> deleteFiles = new LinkedHashMap<>();
    Map<DataFile, Long> deletedByFile = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks = iceberg.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        dataFiles.add(task.file());
        long hidden = 0;
        for (DeleteFile delete : task.deletes()) {
          deleteFiles.putIfAbsent(delete.location(), delete);
          if (delete.content() == FileContent.POSITION_DELETES && task.file().location().equals(delete.referencedDataFile())) {
            hidden += delete.recordCount();
          }
        }
        if (hidden > 0) {
          deletedByFile.put(task.file(), Math.min(hidden, task.file().recordCount()));
        }
      }
    }
    return new LiveFiles(dataFiles, List.copyOf(deleteFiles.values()), deletedByFile);
  }
}
