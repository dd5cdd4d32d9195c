package io.mergesink.ingest.record;

import java.util.Objects;
import org.apache.kafka.connect.data.Schema;

/**
 * A consumed Kafka record as the engine sees it, whichever front end consumed it: where it was read
 * (topic, partition, offset), its timestamp, and its key and value as Connect data (a {@link Schema}
 * with a {@code Struct} or primitive, or no schema with a schemaless {@code Map}), plus its headers.
 *
 * @param partition the partition the record was consumed from; positions in tables refer to it
 * @param offset the record's offset in {@code partition}
 * @param routingTopic the topic {@code ${topic}} routing substitutes: the record's topic after the
 *     front end's transforms (Connect's single message transforms may rename it), else the consumed one
 * @param timestamp the Kafka record timestamp in epoch milliseconds, or {@link #NO_TIMESTAMP}
 * @param keySchema the key's schema, null for schemaless keys
 * @param key the key, null for none
 * @param valueSchema the value's schema, null for schemaless values
 * @param value the value, null for a tombstone
 * @param headers the record's headers
 */
public record KafkaRecord(
    KafkaPartition partition,
    long offset,
    String routingTopic,
    long timestamp,
    Schema keySchema,
    Object key,
    Schema valueSchema,
    Object value,
    RecordHeaders headers) {

  /** {@link #timestamp} of a record that has none. */
  public static final long NO_TIMESTAMP = -1L;

  public KafkaRecord {
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(routingTopic, "routingTopic");
    Objects.requireNonNull(headers, "headers");
    if (offset < 0) {
      throw new IllegalArgumentException("offset of a record of " + partition + " must not be negative, found " + offset);
    }
  }

  /** The consumed topic. */
  public String topic() {
    return partition.topic();
  }

  /** "topic, partition, offset", for messages. */
  public String position() {
    return "topic " + partition.topic() + ", partition " + partition.partition() + ", offset " + offset;
  }
}
