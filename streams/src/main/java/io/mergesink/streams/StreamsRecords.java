package io.mergesink.streams;

import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.storage.SimpleHeaderConverter;
import org.apache.kafka.streams.processor.api.Record;

/**
 * A Streams {@link Record} as the engine sees it ({@link KafkaRecord}), at the input position
 * Streams reports for it. Keys and values may be Connect data with a schema ({@link SchemaAndValue},
 * as {@link ConnectSerde} gives, or a {@link Struct}), schemaless maps, primitives (keys), or a
 * {@link RowChange} the application built; the engine's decoder refuses anything else with the
 * record's position. Headers are read as Connect reads them by default ({@link SimpleHeaderConverter}).
 */
final class StreamsRecords {
  private final SimpleHeaderConverter headerConverter = new SimpleHeaderConverter();

  StreamsRecords() {
    headerConverter.configure(Map.of());
  }

  KafkaRecord view(KafkaPartition partition, long offset, Record<?, ?> record) {
    return view(partition, held(offset, record));
  }

  /** {@code record} at {@code offset} as {@link HeldKeyChanges} keeps it: its key and value as Connect data. */
  HeldRecords.Held held(long offset, Record<?, ?> record) {
    SchemaAndValue value = record.value() instanceof RowChange change ? connectData(change.row()) : connectData(record.value());
    long timestamp = record.timestamp() < 0 ? KafkaRecord.NO_TIMESTAMP : record.timestamp();
    return new HeldRecords.Held(offset, timestamp, connectData(record.key()), value, record.headers());
  }

  KafkaRecord view(KafkaPartition partition, HeldRecords.Held record) {
    return new KafkaRecord(partition, record.offset(), partition.topic(), record.timestamp(), record.key().schema(),
        record.key().value(), record.value().schema(), record.value().value(), headers(partition.topic(), record.headers()));
  }

  private static SchemaAndValue connectData(Object data) {
    if (data instanceof SchemaAndValue connect) {
      return connect;
    }
    if (data instanceof Struct struct) {
      return new SchemaAndValue(struct.schema(), struct);
    }
    return new SchemaAndValue((Schema) null, data);
  }

  private RecordHeaders headers(String topic, Headers headers) {
    if (!headers.iterator().hasNext()) {
      return RecordHeaders.NONE;
    }
    return name -> {
      Header last = headers.lastHeader(name);
      return last == null ? null : headerConverter.toConnectHeader(topic, name, last.value()).value();
    };
  }
}
