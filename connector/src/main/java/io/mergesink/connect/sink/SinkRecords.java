package io.mergesink.connect.sink;

import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Connect's records as the engine sees them. Positions are the consumed ones
 * ({@code SinkRecord.original*}, Kafka 3.6+): a transform that renames the topic or moves the record
 * changes its table, never where its offset is recorded.
 */
public final class SinkRecords {
  private SinkRecords() {}

  /** The engine's view of {@code record}. */
  public static KafkaRecord view(SinkRecord record) {
    return new KafkaRecord(partition(record), record.originalKafkaOffset(), record.topic(),
        record.timestamp() == null ? KafkaRecord.NO_TIMESTAMP : record.timestamp(), record.keySchema(), record.key(),
        record.valueSchema(), record.value(), name -> {
          Header header = record.headers().lastWithName(name);
          return header == null ? null : header.value();
        });
  }

  /** The partition {@code record} was consumed from. */
  public static KafkaPartition partition(SinkRecord record) {
    return new KafkaPartition(record.originalTopic(), record.originalKafkaPartition());
  }
}
