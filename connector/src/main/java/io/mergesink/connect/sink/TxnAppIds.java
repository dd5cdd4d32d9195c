package io.mergesink.connect.sink;

import org.apache.kafka.common.TopicPartition;

/**
 * The Delta {@code txn} app id of a Kafka partition (docs/design.md, "Exactly once"):
 * {@code <txn.app.id>:<topic>:<partition>}. Topic names cannot contain {@code :}, so the id is
 * unambiguous.
 */
record TxnAppIds(String prefix) {

  String of(TopicPartition partition) {
    return topicPrefix(partition.topic()) + partition.partition();
  }

  /** The common start of the app ids of every partition of {@code topic}. */
  String topicPrefix(String topic) {
    return prefix + ":" + topic + ":";
  }
}
