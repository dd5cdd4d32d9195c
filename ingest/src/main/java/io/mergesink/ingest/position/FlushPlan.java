package io.mergesink.ingest.position;

import io.mergesink.ingest.record.KafkaPartition;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one flush commits ({@link PartitionPositions#plan}), in this order: the anchors, then one
 * commit per table. A partition whose anchor did not land takes no part in the commits; a
 * partition counts as flushed to its offset once every commit it takes part in landed.
 *
 * @param anchors txn-only commits of partitions into tables that hold no version of them yet
 * @param commits per table, the txn of every partition whose changes or position it records
 * @param flushedTo per partition of the plan, the offset it is flushed to when everything landed
 */
public record FlushPlan(List<TableTxns> anchors, List<TableTxns> commits, Map<KafkaPartition, Long> flushedTo) {
  public FlushPlan {
    anchors = List.copyOf(anchors);
    commits = List.copyOf(commits);
    flushedTo = Collections.unmodifiableMap(new LinkedHashMap<>(flushedTo));
  }
}
