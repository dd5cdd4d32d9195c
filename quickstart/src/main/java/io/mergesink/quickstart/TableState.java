package io.mergesink.quickstart;

import java.util.Map;

/**
 * What the demo's table holds at one version, as its {@link TableReader} reads it.
 *
 * @param version the Delta version, the Iceberg snapshot's sequence number, or the Paimon snapshot's id
 * @param rows live rows (deleted rows and rows hidden by deletion vectors excluded)
 * @param committedOffsets per partition of the demo topic, the last Kafka offset the sink
 *     committed into the table (its Delta {@code txn} version, its Iceberg snapshot summary's or Paimon
 *     snapshot properties' position)
 */
record TableState(long version, long rows, Map<Integer, Long> committedOffsets) {
  /** How many events of the topic the table reflects: every offset up to the committed one. */
  long committedEvents() {
    return committedOffsets.values().stream().mapToLong(offset -> offset + 1).sum();
  }

  /** Whether the table reflects every event up to {@code endOffsets} (partition → end offset). */
  boolean caughtUpWith(Map<Integer, Long> endOffsets) {
    return endOffsets.entrySet().stream().allMatch(end -> end.getValue() == 0
        || Long.valueOf(end.getValue() - 1).equals(committedOffsets.get(end.getKey())));
  }
}
