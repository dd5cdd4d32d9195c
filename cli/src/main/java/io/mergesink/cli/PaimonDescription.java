package io.mergesink.cli;

import io.mergesink.ingest.format.FormatTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataField;

/**
 * {@code mergesink describe} of a Paimon table: the keys of the Delta description where the concepts
 * match (schema, key, files, rows, small files), and Paimon's own (latest snapshot, buckets, merge
 * engine, LSM levels, deletion vectors). Files, bytes and physical rows are those of the snapshot's
 * live files in every level ({@code -D} rows count); live rows are those Paimon's reader sees: with
 * deletion vectors the rows of the files above level 0 less the rows their deletion vectors mark
 * (rows in level 0 become visible when compaction moves them up), without them unknown until merged
 * on read.
 */
final class PaimonDescription {
  /** The LSM level a writer flushes to, which deletion-vector readers skip. */
  private static final int LEVEL_0 = 0;

  private PaimonDescription() {}

  /**
   * The description of the latest snapshot's live files.
   *
   * @param dvRatio a data file whose deletion vector marks more than this share of its rows counts as dense
   */
  static Map<String, Object> describe(FormatTable table, FileStoreTable paimon, long targetSizeBytes, double dvRatio)
      throws IOException {
    CoreOptions options = paimon.coreOptions();
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("table", table.location());
    d.put("format", "paimon");
    d.put("identifier", paimon.fullName());
    d.put("version", table.version());
    Snapshot latest = paimon.snapshotManager().latestSnapshot();
    Map<String, Object> snapshot = new LinkedHashMap<>();
    snapshot.put("id", latest == null ? null : latest.id());
    snapshot.put("commitKind", latest == null ? null : latest.commitKind().name());
    snapshot.put("timestamp", latest == null ? null : Instant.ofEpochMilli(latest.timeMillis()).toString());
    snapshot.put("commitUser", latest == null ? null : latest.commitUser());
    snapshot.put("commitIdentifier", latest == null ? null : latest.commitIdentifier());
    snapshot.put("schemaId", latest == null ? null : latest.schemaId());
    d.put("latestSnapshot", snapshot);
    List<Map<String, Object>> columns = new ArrayList<>();
    for (DataField field : paimon.rowType().getFields()) {
      Map<String, Object> column = new LinkedHashMap<>();
      column.put("name", field.name());
      column.put("type", field.type().asSQLString());
      column.put("nullable", field.type().isNullable());
      column.put("fieldId", field.id());
      columns.add(column);
    }
    d.put("schema", columns);
    d.put("primaryKey", paimon.primaryKeys());
    d.put("partitionColumns", paimon.partitionKeys());
    d.put("bucket", options.bucket());
    d.put("mergeEngine", options.mergeEngine().toString());
    d.put("deletionVectorsEnabled", options.deletionVectorsEnabled());
    d.put("properties", paimon.options());

    List<DataFileMeta> files = latest == null ? List.of()
        : paimon.store().newScan().withSnapshot(latest).plan().files().stream().map(ManifestEntry::file).toList();
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("count", files.size());
    counts.put("bytes", files.stream().mapToLong(DataFileMeta::fileSize).sum());
    counts.put("level0", files.stream().filter(file -> file.level() == LEVEL_0).count());
    counts.put("maxLevel", files.stream().mapToInt(DataFileMeta::level).max().orElse(LEVEL_0));
    d.put("files", counts);
    List<FileDeletes> read = latest == null ? List.of() : fileDeletes(paimon);
    long readRows = read.stream().mapToLong(FileDeletes::rows).sum();
    long deleted = read.stream().mapToLong(FileDeletes::deleted).sum();
    Map<String, Object> rows = new LinkedHashMap<>();
    rows.put("live", options.deletionVectorsEnabled() || paimon.primaryKeys().isEmpty() ? readRows - deleted : null);
    rows.put("physical", files.stream().mapToLong(DataFileMeta::rowCount).sum());
    rows.put("deleted", deleted);
    d.put("rows", rows);
    Map<String, Object> dvs = new LinkedHashMap<>();
    dvs.put("filesWithDeletionVectors", (int) read.stream().filter(file -> file.deleted > 0).count());
    dvs.put("deletedRows", deleted);
    dvs.put("maxDeletedFraction", read.stream().mapToDouble(FileDeletes::fraction).max().orElse(0));
    dvs.put("denseRatio", dvRatio);
    dvs.put("denseFiles", (int) read.stream().filter(file -> file.fraction() > dvRatio).count());
    d.put("deletionVectors", dvs);
    List<Long> small = files.stream().map(DataFileMeta::fileSize).filter(size -> size < targetSizeBytes).sorted().toList();
    d.put("smallFiles", DescribeCommand.smallFiles(small, targetSizeBytes));
    d.put("snapshots", paimon.snapshotManager().snapshotCount());
    d.put("positions", table.positionIds().size());
    return d;
  }

  /** A file Paimon's reader reads, its rows and the rows its deletion vector marks. */
  private record FileDeletes(long rows, long deleted) {
    double fraction() {
      return rows == 0 ? 0 : (double) deleted / rows;
    }
  }

  private static List<FileDeletes> fileDeletes(FileStoreTable paimon) {
    List<FileDeletes> found = new ArrayList<>();
    for (Split split : paimon.newReadBuilder().newScan().plan().splits()) {
      DataSplit data = (DataSplit) split;
      List<DeletionFile> deletions = data.deletionFiles().orElse(List.of());
      for (int i = 0; i < data.dataFiles().size(); i++) {
        DeletionFile deletion = i < deletions.size() ? deletions.get(i) : null;
        long marked = deletion == null || deletion.cardinality() == null ? 0 : deletion.cardinality();
        found.add(new FileDeletes(data.dataFiles().get(i).rowCount(), marked));
      }
    }
    return found;
  }

  @SuppressWarnings("unchecked")
  static void printText(PrintWriter out, FileStoreTable paimon, Map<String, Object> d) {
    Map<String, Object> snapshot = (Map<String, Object>) d.get("latestSnapshot");
    Map<String, Object> files = (Map<String, Object>) d.get("files");
    Map<String, Object> rows = (Map<String, Object>) d.get("rows");
    Map<String, Object> dvs = (Map<String, Object>) d.get("deletionVectors");
    out.printf("table        %s%n", d.get("table"));
    out.printf("format       paimon (%s), %s buckets, merge engine %s, deletion vectors %s%n", d.get("identifier"), d.get("bucket"),
        d.get("mergeEngine"), (Boolean) d.get("deletionVectorsEnabled") ? "on" : "off");
    out.printf("snapshot     %s, %s at %s by %s%n", orNone(snapshot.get("id")), orNone(snapshot.get("commitKind")),
        orNone(snapshot.get("timestamp")), orNone(snapshot.get("commitUser")));
    out.println("schema");
    for (DataField field : paimon.rowType().getFields()) {
      out.printf("  %-20s %s%n", field.name(), field.type().asSQLString());
    }
    List<String> key = (List<String>) d.get("primaryKey");
    out.printf("primary key  %s%n", key.isEmpty() ? "(none)" : String.join(", ", key));
    List<String> partitions = (List<String>) d.get("partitionColumns");
    if (!partitions.isEmpty()) {
      out.printf("partitioned  %s%n", String.join(", ", partitions));
    }
    out.printf("files        %,d (%s), %,d in level 0, max level %s%n", (Integer) files.get("count"), Sizes.format((Long) files.get("bytes")),
        (Long) files.get("level0"), files.get("maxLevel"));
    out.printf("rows         %s live (%,d physical, %,d deleted by deletion vectors)%n",
        rows.get("live") == null ? "? (merged on read)" : String.format(Locale.ROOT, "%,d", (Long) rows.get("live")),
        (Long) rows.get("physical"), (Long) rows.get("deleted"));
    out.printf(Locale.ROOT, "deletion vec %,d files with DVs, max deleted fraction %.2f, %d files above %.2f%n",
        (Integer) dvs.get("filesWithDeletionVectors"), (Double) dvs.get("maxDeletedFraction"), (Integer) dvs.get("denseFiles"),
        (Double) dvs.get("denseRatio"));
    DescribeCommand.printSmallFiles(out, d);
    out.printf("snapshots    %s%n", d.get("snapshots"));
    out.printf("positions    %s%n", d.get("positions"));
  }

  private static Object orNone(Object value) {
    return value == null ? "(none)" : value;
  }
}
