package io.mergesink.connect.reliability;

import io.mergesink.connect.testing.CustomerEvents;
import io.mergesink.core.data.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.ConverterType;

/**
 * A Kafka topic in memory: the Debezium change events of {@link CustomerEvents} (key {@code id} in
 * partition {@code id % partitions}), stored as the JSON bytes a source connector would produce and
 * handed out as the {@link SinkRecord}s Connect's {@link JsonConverter} makes of them; with the
 * model of the source table the events describe.
 */
final class RecordLog {
  private static final long BASE_TIMESTAMP = 1_767_225_600_000L;

  private final String topic;
  private final List<List<Stored>> partitions = new ArrayList<>();
  private final JsonConverter keys = converter(ConverterType.KEY);
  private final JsonConverter values = converter(ConverterType.VALUE);
  private final Map<Long, Row> model = new HashMap<>();
  private final Map<Long, Integer> versions = new HashMap<>();

  RecordLog(String topic, int partitions) {
    this.topic = topic;
    for (int i = 0; i < partitions; i++) {
      this.partitions.add(new ArrayList<>());
    }
  }

  String topic() {
    return topic;
  }

  int partitionCount() {
    return partitions.size();
  }

  List<TopicPartition> topicPartitions() {
    List<TopicPartition> all = new ArrayList<>();
    for (int i = 0; i < partitions.size(); i++) {
      all.add(new TopicPartition(topic, i));
    }
    return all;
  }

  /** Inserts (or, for a key that exists, updates) {@code id}. */
  void upsert(long id) {
    int version = versions.merge(id, 1, Integer::sum);
    String op = model.containsKey(id) ? "u" : "c";
    append(partitionOf(id), CustomerEvents.KEY, CustomerEvents.key(id), CustomerEvents.VALUE,
        CustomerEvents.upsert(op, id, version));
    model.put(id, CustomerEvents.expectedRow(id, version));
  }

  /** Deletes {@code id}: a delete event, and with {@code tombstone} the tombstone after it. */
  void delete(long id, boolean tombstone) {
    int version = versions.merge(id, 1, Integer::sum);
    append(partitionOf(id), CustomerEvents.KEY, CustomerEvents.key(id), CustomerEvents.VALUE, CustomerEvents.delete(id, version));
    if (tombstone) {
      append(partitionOf(id), CustomerEvents.KEY, CustomerEvents.key(id), null, null);
    }
    model.remove(id);
  }

  /** A primary key update, as Debezium sends it: a delete of the old key (with tombstone), a create of the new. */
  void changeKey(long from, long to) {
    if (model.containsKey(from)) {
      delete(from, true);
    }
    upsert(to);
  }

  /**
   * A {@code TRUNCATE} of the source table into {@code partition} (Debezium sends it with no key,
   * so it lands in one partition). With {@code truncate.enabled} the table is emptied.
   */
  void truncate(int partition) {
    Struct source = ((Struct) CustomerEvents.upsert("c", 0, 1).get("source"));
    Struct event = new Struct(CustomerEvents.VALUE).put("op", "t").put("source", source).put("ts_ms", source.getInt64("ts_ms"));
    append(partition, null, null, CustomerEvents.VALUE, event);
    model.clear();
  }

  /** Appends any record (for bad input); the model does not change. */
  long append(int partition, Schema keySchema, Object key, Schema valueSchema, Object value) {
    byte[] keyBytes = key == null ? null : keys.fromConnectData(topic, keySchema, key);
    byte[] valueBytes = value == null ? null : values.fromConnectData(topic, valueSchema, value);
    return appendBytes(partition, keyBytes, valueBytes);
  }

  /** Appends raw bytes; {@link #records} fails on bytes that are not converter JSON, as Connect's converter would. */
  long appendBytes(int partition, byte[] key, byte[] value) {
    List<Stored> log = partitions.get(partition);
    log.add(new Stored(key, value));
    return log.size() - 1;
  }

  /** The offset of the next record of {@code partition}. */
  long endOffset(int partition) {
    return partitions.get(partition).size();
  }

  Map<TopicPartition, Long> endOffsets() {
    Map<TopicPartition, Long> ends = new HashMap<>();
    for (int i = 0; i < partitions.size(); i++) {
      ends.put(new TopicPartition(topic, i), endOffset(i));
    }
    return ends;
  }

  long size() {
    return partitions.stream().mapToLong(List::size).sum();
  }

  /** Up to {@code max} records of {@code partition} from {@code offset} on, converted like Connect's JsonConverter. */
  List<SinkRecord> records(int partition, long offset, int max) {
    List<Stored> log = partitions.get(partition);
    List<SinkRecord> records = new ArrayList<>();
    for (long at = offset; at < log.size() && records.size() < max; at++) {
      Stored stored = log.get((int) at);
      SchemaAndValue key = keys.toConnectData(topic, stored.key());
      SchemaAndValue value = values.toConnectData(topic, stored.value());
      records.add(new SinkRecord(topic, partition, key.schema(), key.value(), value.schema(), value.value(), at,
          BASE_TIMESTAMP + at, TimestampType.CREATE_TIME));
    }
    return records;
  }

  /** The source table as the events describe it: id → row. */
  Map<Long, Row> model() {
    return model;
  }

  int partitionOf(long id) {
    return (int) Math.floorMod(id, (long) partitions.size());
  }

  private static JsonConverter converter(ConverterType type) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", "converter.type", type.getName()));
    return converter;
  }

  private record Stored(byte[] key, byte[] value) {}
}
