package io.mergesink.ingest.record;

import java.util.Objects;

/**
 * A partition of a Kafka topic, as the engine's positions are kept: the topic the record was
 * consumed from (before any transform renamed it) and its partition number.
 */
public record KafkaPartition(String topic, int partition) {
  public KafkaPartition {
    Objects.requireNonNull(topic, "topic");
    if (partition < 0) {
      throw new IllegalArgumentException("partition of " + topic + " must not be negative, found " + partition);
    }
  }

  /** {@code topic-partition}, as Kafka writes it. */
  @Override
  public String toString() {
    return topic + "-" + partition;
  }
}
