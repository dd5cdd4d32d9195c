package io.mergesink.cli;

import io.mergesink.core.log.AddFile;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.FileHealth;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.table.PrimaryKeyProperty;
import io.mergesink.core.types.StructField;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mergesink describe TABLE}: schema, key, protocol (Iceberg: format version, partition spec,
 * current snapshot; Paimon: latest snapshot, buckets, merge engine, LSM levels), files, rows, DV
 * (Iceberg: delete file) and small-file statistics.
 */
@Command(name = "describe", description = "Show a table's schema, key, protocol, files, rows, deletion vectors / delete files and small files.")
final class DescribeCommand extends TableCommand {
  @Option(names = "--target-size", paramLabel = "SIZE", defaultValue = "128MiB",
      description = "Files below this size count as small (default ${DEFAULT-VALUE}).")
  String targetSize;

  @Option(names = "--dv-ratio", defaultValue = "" + CompactionOptions.DEFAULT_DELETED_RATIO,
      description = "Files with a larger deleted fraction count as DV-dense (default ${DEFAULT-VALUE}).")
  double dvRatio;

  @Override
  void run(PrintWriter out) throws IOException {
    Snapshot snapshot = snapshot();
    Map<String, Object> description = describe(snapshot, Sizes.parse(targetSize), dvRatio);
    if (json) {
      printJson(out, description);
      return;
    }
    printText(out, snapshot, description);
  }

  @Override
  void runIceberg(PrintWriter out) throws IOException {
    try (IcebergTableRef.Opened opened = openIceberg()) {
      Map<String, Object> description = IcebergDescription.describe(opened.table(), opened.iceberg(), Sizes.parse(targetSize), dvRatio);
      if (json) {
        printJson(out, description);
        return;
      }
      IcebergDescription.printText(out, opened.iceberg(), description);
    }
  }

  @Override
  void runPaimon(PrintWriter out) throws IOException {
    try (PaimonTableRef.Opened opened = openPaimon()) {
      Map<String, Object> description = PaimonDescription.describe(opened.table(), opened.paimon(), Sizes.parse(targetSize), dvRatio);
      if (json) {
        printJson(out, description);
        return;
      }
      PaimonDescription.printText(out, opened.paimon(), description);
    }
  }

  static Map<String, Object> describe(Snapshot snapshot, long targetSizeBytes, double dvRatio) {
    long bytes = 0;
    long physicalRows = 0;
    long deletedRows = 0;
    long filesWithoutStats = 0;
    int filesWithDvs = 0;
    int denseFiles = 0;
    double maxDeletedFraction = 0;
    List<Long> smallSizes = new ArrayList<>();
    for (AddFile file : snapshot.files().values()) {
      bytes += file.size();
      if (file.numRecords() == AddFile.UNKNOWN_RECORDS) {
        filesWithoutStats++;
      } else {
        physicalRows += file.numRecords();
      }
      deletedRows += file.deletedRecords();
      if (file.deletionVector() != null) {
        filesWithDvs++;
        double fraction = FileHealth.deletedFraction(file);
        maxDeletedFraction = Math.max(maxDeletedFraction, fraction);
        if (fraction > dvRatio) {
          denseFiles++;
        }
      }
      if (file.size() < targetSizeBytes) {
        smallSizes.add(file.size());
      }
    }
    smallSizes.sort(null);
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("table", snapshot.tableRoot());
    d.put("version", snapshot.version());
    d.put("tableId", snapshot.metadata().id());
    List<Map<String, Object>> columns = new ArrayList<>();
    for (StructField field : snapshot.schema().fields()) {
      Map<String, Object> column = new LinkedHashMap<>();
      column.put("name", field.name());
      column.put("type", field.type().toString());
      column.put("nullable", field.nullable());
      columns.add(column);
    }
    d.put("schema", columns);
    d.put("primaryKey", PrimaryKeyProperty.of(snapshot.metadata()));
    d.put("partitionColumns", snapshot.metadata().partitionColumns());
    Map<String, Object> protocol = new LinkedHashMap<>();
    protocol.put("minReaderVersion", snapshot.protocol().minReaderVersion());
    protocol.put("minWriterVersion", snapshot.protocol().minWriterVersion());
    protocol.put("readerFeatures", snapshot.protocol().readerFeatures() == null ? List.of() : snapshot.protocol().readerFeatures());
    protocol.put("writerFeatures", snapshot.protocol().writerFeatures() == null ? List.of() : snapshot.protocol().writerFeatures());
    d.put("protocol", protocol);
    d.put("properties", snapshot.metadata().configuration());
    Map<String, Object> files = new LinkedHashMap<>();
    files.put("count", snapshot.files().size());
    files.put("bytes", bytes);
    files.put("withoutStats", filesWithoutStats);
    d.put("files", files);
    Map<String, Object> rows = new LinkedHashMap<>();
    rows.put("live", physicalRows - deletedRows);
    rows.put("physical", physicalRows);
    rows.put("deleted", deletedRows);
    d.put("rows", rows);
    Map<String, Object> dvs = new LinkedHashMap<>();
    dvs.put("filesWithDeletionVectors", filesWithDvs);
    dvs.put("deletedRows", deletedRows);
    dvs.put("maxDeletedFraction", maxDeletedFraction);
    dvs.put("denseRatio", dvRatio);
    dvs.put("denseFiles", denseFiles);
    d.put("deletionVectors", dvs);
    d.put("smallFiles", smallFiles(smallSizes, targetSizeBytes));
    d.put("txns", snapshot.txnVersions().size());
    d.put("lastCheckpointVersion", snapshot.lastCheckpointVersion().isPresent() ? snapshot.lastCheckpointVersion().getAsLong() : null);
    return d;
  }

  /** The {@code smallFiles} of a description: the files below {@code targetSizeBytes}, whose sizes {@code smallSizes} are, sorted. */
  static Map<String, Object> smallFiles(List<Long> smallSizes, long targetSizeBytes) {
    Map<String, Object> small = new LinkedHashMap<>();
    small.put("targetSizeBytes", targetSizeBytes);
    small.put("count", smallSizes.size());
    small.put("bytes", smallSizes.stream().mapToLong(Long::longValue).sum());
    small.put("medianBytes", smallSizes.isEmpty() ? 0 : smallSizes.get(smallSizes.size() / 2));
    return small;
  }

  @SuppressWarnings("unchecked")
  static void printSmallFiles(PrintWriter out, Map<String, Object> d) {
    Map<String, Object> small = (Map<String, Object>) d.get("smallFiles");
    out.printf("small files  %,d below %s (%s, median %s)%n", (Integer) small.get("count"), Sizes.format((Long) small.get("targetSizeBytes")),
        Sizes.format((Long) small.get("bytes")), Sizes.format((Long) small.get("medianBytes")));
  }

  @SuppressWarnings("unchecked")
  private static void printText(PrintWriter out, Snapshot snapshot, Map<String, Object> d) {
    Map<String, Object> files = (Map<String, Object>) d.get("files");
    Map<String, Object> rows = (Map<String, Object>) d.get("rows");
    Map<String, Object> dvs = (Map<String, Object>) d.get("deletionVectors");
    Map<String, Object> protocol = (Map<String, Object>) d.get("protocol");
    out.printf("table        %s%n", d.get("table"));
    out.printf("version      %s%n", d.get("version"));
    out.println("schema");
    for (StructField field : snapshot.schema().fields()) {
      out.printf("  %-20s %s%s%n", field.name(), field.type(), field.nullable() ? "" : " not null");
    }
    List<String> key = (List<String>) d.get("primaryKey");
    out.printf("primary key  %s%n", key.isEmpty() ? "(none)" : String.join(", ", key));
    List<String> partitions = (List<String>) d.get("partitionColumns");
    if (partitions != null && !partitions.isEmpty()) {
      out.printf("partitioned  %s%n", String.join(", ", partitions));
    }
    out.printf("protocol     reader %s, writer %s, features %s%n", protocol.get("minReaderVersion"), protocol.get("minWriterVersion"),
        protocol.get("writerFeatures"));
    out.printf("files        %,d (%s)%n", (Integer) files.get("count"), Sizes.format((Long) files.get("bytes")));
    out.printf("rows         %,d live (%,d physical, %,d deleted by deletion vectors)%n", (Long) rows.get("live"),
        (Long) rows.get("physical"), (Long) rows.get("deleted"));
    out.printf(Locale.ROOT, "deletion vec %,d files with DVs, max deleted fraction %.2f, %d files above %.2f%n",
        (Integer) dvs.get("filesWithDeletionVectors"), (Double) dvs.get("maxDeletedFraction"), (Integer) dvs.get("denseFiles"),
        (Double) dvs.get("denseRatio"));
    printSmallFiles(out, d);
    out.printf("txns         %s%n", d.get("txns"));
    out.printf("checkpoint   %s%n", d.get("lastCheckpointVersion") == null ? "(none)" : d.get("lastCheckpointVersion"));
  }
}
