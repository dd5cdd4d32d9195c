package io.mergesink.ingest.position;

import io.mergesink.ingest.buffer.PartitionBuffer;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.HashMap;
import java.util.Map;

/**
 * What a task knows about one of its partitions: the pending changes, and for every table the
 * partition feeds, the last offset that table holds (its txn version). A record at or below that
 * offset is a replay for that table and is skipped.
 */
public final class PartitionState {
  private final KafkaPartition partition;
  private final String appId;
  private final PartitionBuffer buffer;
  private final Map<String, Long> recordedOffsets;
  private boolean rewound;

  public PartitionState(KafkaPartition partition, String appId, PartitionBuffer buffer, Map<String, Long> recordedOffsets) {
    this.partition = partition;
    this.appId = appId;
    this.buffer = buffer;
    this.recordedOffsets = new HashMap<>(recordedOffsets);
  }

  public KafkaPartition partition() {
    return partition;
  }

  public String appId() {
    return appId;
  }

  public PartitionBuffer buffer() {
    return buffer;
  }

  /** Whether {@code table} already holds the record at {@code offset} of this partition. */
  public boolean isReplay(String table, long offset) {
    Long recorded = recordedOffsets.get(table);
    return recorded != null && offset <= recorded;
  }

  /** The tables known to hold a txn of this partition, with its version in each. */
  public Map<String, Long> recordedOffsets() {
    return recordedOffsets;
  }

  public void recorded(String table, long offset) {
    recordedOffsets.put(table, offset);
  }

  /**
   * Whether the consumer was sent back to an earlier offset of this partition; records of it that
   * were already polled are ignored, they come again.
   */
  public boolean rewound() {
    return rewound;
  }

  public void markRewound() {
    rewound = true;
  }

  /** Called when a new batch starts: Connect has applied the seek by then. */
  public void clearRewound() {
    rewound = false;
  }
}
