package io.mergesink.ingest.format.paimon;

import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.Snapshot;

/**
 * What MergeSink records in the properties of the Paimon snapshots it commits, for tools that read
 * a table's history (the CLI): the Kafka positions the table accounts for and the commit tags.
 * Snapshots of other writers (a compaction job) record neither.
 */
public final class PaimonSnapshotProperties {
  private PaimonSnapshotProperties() {}

  /** The positions {@code snapshot} records, position id → last offset; empty for a snapshot of another writer. */
  public static Map<String, Long> positions(Snapshot snapshot) {
    return SnapshotPositions.recordedBy(snapshot);
  }

  /** The commit tags {@code snapshot} records, name → value. */
  public static Map<String, String> tags(Snapshot snapshot) {
    Map<String, String> tags = new TreeMap<>();
    if (snapshot.properties() != null) {
      snapshot.properties().forEach((key, value) -> {
        if (key.startsWith(SnapshotPositions.TAG_PREFIX)) {
          tags.put(key.substring(SnapshotPositions.TAG_PREFIX.length()), value);
        }
      });
    }
    return tags;
  }
}
