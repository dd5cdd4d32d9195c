package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.ingest.format.iceberg.IcebergKeyIndex.TrackedFile;
import io.mergesink.ingest.maintenance.CompactionRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maintenance of one Iceberg table beside ingestion (docs/iceberg.md, "Maintenance"): data files
 * whose deletes hide at least a share of their rows are rewritten with their live rows, small files
 * of one partition are packed together once there are enough of them, in one {@code RewriteFiles}
 * commit that carries the Kafka positions forward; then snapshots past the table's
 * {@code history.expire.max-snapshot-age-ms} are expired, always keeping the newest snapshot that
 * records positions; and, when asked, orphan files are removed.
 *
 * <p>Prepared on the writer's state (which files, on which snapshot), run on the compaction thread
 * with a table instance of its own. A concurrent commit that adds deletes to a chosen file makes
 * Iceberg refuse the rewrite: the run gives way, and a later one plans afresh. Tables with equality
 * deletes are not rewritten: the new files would take a newer sequence number than the deletes.
 */
final class IcebergCompaction implements CompactionRun {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCompaction.class);
  private static final int MAX_ATTEMPTS = 3;

  private final Supplier<Table> load;
  private final Snapshot base;
  private final List<TrackedFile> chosen;
  private final boolean removeOrphans;

  private IcebergCompaction(Supplier<Table> load, Snapshot base, List<TrackedFile> chosen, boolean removeOrphans) {
    this.load = load;
    this.base = base;
    this.chosen = List.copyOf(chosen);
    this.removeOrphans = removeOrphans;
  }

  /**
   * The maintenance of {@code files}, the data files of {@code base} with their deletes: empty when
   * none needs a rewrite, no snapshot is past its age and orphan files are not to be removed.
   *
   * @param load a new instance of the table, for the run's own use
   * @param removeOrphans whether the run also removes orphan files ({@link OrphanFiles})
   */
  static Optional<CompactionRun> plan(Supplier<Table> load, Table table, Iterable<TrackedFile> files, double deletedRatio,
      int minSmallFiles, long targetFileSizeBytes, boolean removeOrphans) {
    Snapshot base = table.currentSnapshot();
    if (base == null) {
      return Optional.empty();
    }
    List<TrackedFile> chosen = new ArrayList<>();
    if (!hasEqualityDeletes(base)) {
      Map<String, List<TrackedFile>> smallByPartition = new TreeMap<>();
      for (TrackedFile tracked : files) {
        // a copy: the writer's index changes its file's deletes on the engine's thread while the run reads them on its own
        TrackedFile file = new TrackedFile(tracked.file(), List.copyOf(tracked.positionDeletes()));
        long deleted = file.positionDeletes().stream().mapToLong(DeleteFile::recordCount).sum();
        if (deleted > 0 && deleted >= deletedRatio * file.file().recordCount()) {
          chosen.add(file);
        } else if (file.file().fileSizeInBytes() < targetFileSizeBytes) {
          smallByPartition.computeIfAbsent(file.file().specId() + "/" + file.file().partition(), key -> new ArrayList<>()).add(file);
        }
      }
      smallByPartition.values().stream().filter(small -> small.size() >= minSmallFiles).forEach(chosen::addAll);
    }
    if (chosen.isEmpty() && !hasExpiredSnapshots(table) && !removeOrphans) {
      return Optional.empty();
    }
    return Optional.of(new IcebergCompaction(load, base, chosen, removeOrphans));
  }

  @Override
  public CompactionResult compact() throws IOException {
    Table table = load.get();
    CompactionResult result = chosen.isEmpty() ? new CompactionResult.NothingToCompact(base.sequenceNumber()) : rewrite(table);
    expire(table);
    if (removeOrphans) {
      List<String> orphans = OrphanFiles.find(table, System.currentTimeMillis() - OrphanFiles.MIN_AGE.toMillis());
      if (!orphans.isEmpty()) {
        LOG.info("Removing {} orphan files of table {}: {}", orphans.size(), table.name(), orphans);
        OrphanFiles.delete(table, orphans);
      }
    }
    return result;
  }

  private CompactionResult rewrite(Table table) throws IOException {
    Set<DataFile> dataFiles = new HashSet<>();
    Set<DeleteFile> deleteFiles = new HashSet<>();
    long rowsPurged = 0;
    for (TrackedFile file : chosen) {
      dataFiles.add(file.file());
      deleteFiles.addAll(file.positionDeletes());
      rowsPurged += file.positionDeletes().stream().mapToLong(DeleteFile::recordCount).sum();
    }
    List<DataFile> written = write(table);
    String lastReason = "";
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      table.refresh();
      Map<String, Long> positions = SnapshotPositions.of(SnapshotUtil.currentAncestors(table));
      RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(base.snapshotId())
          .rewriteFiles(dataFiles, deleteFiles, Set.copyOf(written), Set.of());
      positions.forEach((id, offset) -> rewrite.set(SnapshotPositions.PREFIX + id, Long.toString(offset)));
      try {
        rewrite.validateWith(new SnapshotPositions.Check(Map.of(), positions)).commit();
        long rowsWritten = written.stream().mapToLong(DataFile::recordCount).sum();
        return new CompactionResult.Compacted(table.currentSnapshot().sequenceNumber(), dataFiles.size(), written.size(), rowsWritten,
            rowsPurged, dataFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum(),
            written.stream().mapToLong(DataFile::fileSizeInBytes).sum(), 0, attempt - 1);
      } catch (ValidationException | CommitFailedException e) {
        lastReason = e.getMessage();
      }
    }
    written.forEach(file -> table.io().deleteFile(file.location()));
    return new CompactionResult.GaveWay(MAX_ATTEMPTS, lastReason);
  }

  /** The live rows of the chosen files, in files of their partitions, keeping their row lineage. */
  private List<DataFile> write(Table table) throws IOException {
    Schema schema = DataFileRows.rewriteSchema(table);
    GenericFileWriterFactory writers = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET)
        .dataSchema(schema).build();
    OutputFileFactory outputs = OutputFileFactory.builderFor(table, 0, 0).format(FileFormat.PARQUET)
        .operationId("compaction-" + UUID.randomUUID()).build();
    long targetSize = PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    FanoutDataWriter<Record> writer = new FanoutDataWriter<>(writers, outputs, table.io(), targetSize);
    try (writer) {
      for (TrackedFile file : chosen) {
        StructLike partition = file.file().partition();
        DataFileRows.Rows rows = DataFileRows.rewrite(table, file.file(), file.positionDeletes());
        try (CloseableIterable<Record> records = rows.records()) {
          for (Record record : records) {
            writer.write(rows.rewritten(record, schema), table.specs().get(file.file().specId()), partition);
          }
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return writer.result().dataFiles();
  }

  /** Expires snapshots past the table's age, keeping every snapshot down to the newest that records positions. */
  private static void expire(Table table) {
    if (!hasExpiredSnapshots(table)) {
      return;
    }
    table.refresh();
    int keep = 0;
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      keep++;
      if (snapshot.summary().keySet().stream().anyMatch(key -> key.startsWith(SnapshotPositions.PREFIX))) {
        break;
      }
    }
    int minimum = PropertyUtil.propertyAsInt(table.properties(), TableProperties.MIN_SNAPSHOTS_TO_KEEP,
        TableProperties.MIN_SNAPSHOTS_TO_KEEP_DEFAULT);
    table.expireSnapshots().expireOlderThan(System.currentTimeMillis() - maxAgeMs(table)).retainLast(Math.max(keep, minimum)).commit();
  }

  private static boolean hasExpiredSnapshots(Table table) {
    long oldestKept = System.currentTimeMillis() - maxAgeMs(table);
    for (Snapshot snapshot : table.snapshots()) {
      if (snapshot.timestampMillis() < oldestKept) {
        return true;
      }
    }
    return false;
  }

  private static long maxAgeMs(Table table) {
    return PropertyUtil.propertyAsLong(table.properties(), TableProperties.MAX_SNAPSHOT_AGE_MS, TableProperties.MAX_SNAPSHOT_AGE_MS_DEFAULT);
  }

  private static boolean hasEqualityDeletes(Snapshot snapshot) {
    return !"0".equals(snapshot.summary().getOrDefault(SnapshotSummary.TOTAL_EQ_DELETES_PROP, "0"));
  }
}
