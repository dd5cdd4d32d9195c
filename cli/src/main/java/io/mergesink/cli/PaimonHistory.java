package io.mergesink.cli;

import io.mergesink.ingest.format.paimon.PaimonSnapshotProperties;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.Snapshot;
import org.apache.paimon.manifest.FileKind;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ScanMode;
import org.apache.paimon.utils.SnapshotManager;

/**
 * {@code mergesink history} of a Paimon table: its snapshots not yet expired, newest first, in the
 * shape of a Delta table's history. The operation is the snapshot's commit kind ({@code APPEND} for
 * the rows a commit writes, {@code COMPACT} for the compaction that follows it); files and rows are
 * those of the data files the snapshot adds and removes (a file's rows include its {@code -D} rows).
 * A MergeSink snapshot records every position the table accounts for; its {@code offsets} are those
 * it moved (changed from the previous snapshot that records positions), its {@code tags} the commit
 * tags it carries.
 */
final class PaimonHistory {
  private PaimonHistory() {}

  static List<Map<String, Object>> of(FileStoreTable table, int limit) {
    SnapshotManager snapshots = table.snapshotManager();
    Long latest = snapshots.latestSnapshotId();
    Long earliest = snapshots.earliestSnapshotId();
    List<Map<String, Object>> entries = new ArrayList<>();
    if (latest == null || earliest == null) {
      return entries;
    }
    for (long id = latest; id >= earliest && entries.size() < limit; id--) {
      if (snapshots.snapshotExists(id)) {
        Snapshot snapshot = snapshots.snapshot(id);
        entries.add(entry(table, snapshot, moved(snapshots, snapshot, earliest)));
      }
    }
    return entries;
  }

  /** The positions {@code snapshot} records at other offsets than the previous snapshot that records any. */
  private static Map<String, Long> moved(SnapshotManager snapshots, Snapshot snapshot, long earliest) {
    Map<String, Long> moved = new TreeMap<>(PaimonSnapshotProperties.positions(snapshot));
    if (moved.isEmpty()) {
      return moved;
    }
    for (long older = snapshot.id() - 1; older >= earliest; older--) {
      Map<String, Long> before = snapshots.snapshotExists(older) ? PaimonSnapshotProperties.positions(snapshots.snapshot(older)) : Map.of();
      if (!before.isEmpty()) {
        moved.entrySet().removeIf(position -> position.getValue().equals(before.get(position.getKey())));
        break;
      }
    }
    return moved;
  }

  private static Map<String, Object> entry(FileStoreTable table, Snapshot snapshot, Map<String, Long> moved) {
    List<ManifestEntry> changed = table.store().newScan().withSnapshot(snapshot).withKind(ScanMode.DELTA).plan().files();
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("version", snapshot.id());
    e.put("snapshotId", snapshot.id());
    e.put("timestamp", Instant.ofEpochMilli(snapshot.timeMillis()).toString());
    e.put("operation", snapshot.commitKind().name());
    e.put("commitUser", snapshot.commitUser());
    e.put("commitIdentifier", snapshot.commitIdentifier());
    e.put("filesAdded", count(changed, FileKind.ADD));
    e.put("filesRemoved", count(changed, FileKind.DELETE));
    e.put("rowsAdded", rows(changed, FileKind.ADD));
    e.put("rowsRemoved", rows(changed, FileKind.DELETE));
    e.put("offsets", moved);
    e.put("tags", PaimonSnapshotProperties.tags(snapshot));
    e.put("totalRecordCount", snapshot.totalRecordCount());
    return e;
  }

  private static int count(List<ManifestEntry> files, FileKind kind) {
    return (int) files.stream().filter(file -> file.kind() == kind).count();
  }

  private static long rows(List<ManifestEntry> files, FileKind kind) {
    return files.stream().filter(file -> file.kind() == kind).mapToLong(file -> file.file().rowCount()).sum();
  }
}
