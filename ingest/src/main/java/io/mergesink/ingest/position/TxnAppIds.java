package io.mergesink.ingest.position;

import io.mergesink.ingest.record.KafkaPartition;

/**
 * The Delta {@code txn} app id of a Kafka partition (docs/design.md, "Exactly once"):
 * {@code <txn.app.id>:<topic>:<partition>}. Topic names cannot contain {@code :}, so the id is
 * unambiguous.
 */
public record TxnAppIds(String prefix) {

  public String of(KafkaPartition partition) {
    return topicPrefix(partition.topic()) + partition.partition();
  }

  /** The common start of the app ids of every partition of {@code topic}. */
  public String topicPrefix(String topic) {
    return prefix + ":" + topic + ":";
  }
}
