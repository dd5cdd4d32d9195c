package io.mergesink.cli;

import io.mergesink.ingest.format.iceberg.SnapshotPositions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * {@code mergesink history} of an Iceberg table: the snapshots of its current state (the current
 * snapshot and its ancestors not yet expired), newest first, in the shape of a Delta table's
 * history, their counts from the snapshot summaries. A MergeSink snapshot records every position the
 * table accounts for; its {@code offsets} are those it moved (changed from the previous snapshot
 * that records positions), its {@code tags} the commit tags it carries.
 */
final class IcebergHistory {
  private IcebergHistory() {}

  static List<Map<String, Object>> of(Table table, int limit) {
    List<Snapshot> ancestry = new ArrayList<>();
    SnapshotUtil.currentAncestors(table).forEach(ancestry::add);
    List<Map<String, Object>> entries = new ArrayList<>();
    for (int i = 0; i < ancestry.size() && entries.size() < limit; i++) {
      entries.add(entry(ancestry.get(i), moved(ancestry, i)));
    }
    return entries;
  }

  /** The positions snapshot {@code i} of {@code ancestry} (newest first) records at other offsets than the previous one that records any. */
  private static Map<String, Long> moved(List<Snapshot> ancestry, int i) {
    Map<String, Long> moved = new TreeMap<>(SnapshotPositions.recordedBy(ancestry.get(i)));
    if (moved.isEmpty()) {
      return moved;
    }
    for (int older = i + 1; older < ancestry.size(); older++) {
      Map<String, Long> before = SnapshotPositions.recordedBy(ancestry.get(older));
      if (!before.isEmpty()) {
        moved.entrySet().removeIf(position -> position.getValue().equals(before.get(position.getKey())));
        break;
      }
    }
    return moved;
  }

  private static Map<String, Object> entry(Snapshot snapshot, Map<String, Long> moved) {
    Map<String, String> summary = snapshot.summary();
    Map<String, String> tags = new TreeMap<>();
    summary.forEach((key, value) -> {
      if (key.startsWith(SnapshotPositions.TAG_PREFIX)) {
        tags.put(key.substring(SnapshotPositions.TAG_PREFIX.length()), value);
      }
    });
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("version", snapshot.sequenceNumber());
    e.put("snapshotId", snapshot.snapshotId());
    e.put("parentId", snapshot.parentId());
    e.put("timestamp", Instant.ofEpochMilli(snapshot.timestampMillis()).toString());
    e.put("operation", snapshot.operation());
    e.put("filesAdded", count(summary, SnapshotSummary.ADDED_FILES_PROP));
    e.put("filesRemoved", count(summary, SnapshotSummary.DELETED_FILES_PROP));
    e.put("rowsAdded", count(summary, SnapshotSummary.ADDED_RECORDS_PROP));
    // rows of removed data files, plus rows newly hidden by deletes (a deletion vector that replaces another counts only its new rows)
    e.put("rowsRemoved", count(summary, SnapshotSummary.DELETED_RECORDS_PROP) + count(summary, SnapshotSummary.ADDED_POS_DELETES_PROP)
        - count(summary, SnapshotSummary.REMOVED_POS_DELETES_PROP) + count(summary, SnapshotSummary.ADDED_EQ_DELETES_PROP));
    e.put("deleteFilesAdded", count(summary, SnapshotSummary.ADDED_DELETE_FILES_PROP));
    e.put("deleteFilesRemoved", count(summary, SnapshotSummary.REMOVED_DELETE_FILES_PROP));
    e.put("offsets", moved);
    e.put("tags", tags);
    e.put("summary", summary);
    return e;
  }

  private static long count(Map<String, String> summary, String key) {
    String value = summary.get(key);
    try {
      return value == null ? 0 : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
