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

  /**
   * The topic of the partition app id {@code appId} names: what lies between its last two
   * {@code :}.
   *
   * @throws IllegalArgumentException {@code appId} is not {@code <prefix>:<topic>:<partition>}
   */
  public static String topicOf(String appId) {
    int partitionStart = appId.lastIndexOf(':');
    int topicStart = partitionStart <= 0 ? -1 : appId.lastIndexOf(':', partitionStart - 1);
    if (topicStart < 0) {
      throw new IllegalArgumentException("'" + appId + "' is not a partition's app id, <prefix>:<topic>:<partition>");
    }
    return appId.substring(topicStart + 1, partitionStart);
  }

  /** The common start of the app ids of every partition of {@code topic}. */
  public String topicPrefix(String topic) {
    return prefix + ":" + topic + ":";
  }
}
