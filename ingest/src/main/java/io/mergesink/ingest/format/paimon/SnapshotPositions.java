package io.mergesink.ingest.format.paimon;

import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.Snapshot;
import org.apache.paimon.utils.SnapshotManager;

/**
 * The Kafka positions a Paimon table accounts for (docs/paimon.md, "Exactly once"): each snapshot
 * MergeSink commits records in its properties the position of every partition the table accounts
 * for, those it did not move carried forward from its parent ({@link PositionGuard}). Snapshots of
 * other writers (a dedicated compaction job) record none, so the positions are those of the newest
 * snapshot that records any; snapshots Paimon expires take nothing with them that a newer one does
 * not carry.
 */
final class SnapshotPositions {
  /** Property prefix of a position: {@code mergesink.position.<id>} = the last offset the table holds. */
  static final String PREFIX = "mergesink.position.";
  /** Property prefix of a commit tag. */
  static final String TAG_PREFIX = "mergesink.tag.";

  private SnapshotPositions() {}

  /** The positions recorded by {@code snapshot} or, when it records none, by the newest of its ancestors that does. */
  static Map<String, Long> asOf(SnapshotManager snapshots, Snapshot snapshot) {
    Long earliest = snapshots.earliestSnapshotId();
    for (Snapshot at = snapshot; at != null; ) {
      Map<String, Long> positions = recordedBy(at);
      if (!positions.isEmpty()) {
        return positions;
      }
      long parent = at.id() - 1;
      at = earliest == null || parent < earliest || !snapshots.snapshotExists(parent) ? null : snapshots.snapshot(parent);
    }
    return Map.of();
  }

  /** The positions {@code snapshot} records in its properties: empty for a snapshot of another writer. */
  static Map<String, Long> recordedBy(Snapshot snapshot) {
    Map<String, Long> positions = new TreeMap<>();
    if (snapshot.properties() != null) {
      snapshot.properties().forEach((key, value) -> {
        if (key.startsWith(PREFIX)) {
          positions.put(key.substring(PREFIX.length()), Long.parseLong(value));
        }
      });
    }
    return positions;
  }
}
