package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.CustomerTable.SourcePosition;
import io.mergesink.ingest.testing.Expected.Position;
import io.mergesink.ingest.testing.Expected;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.ConverterType;

/**
 * A Kafka topic in memory holding the Debezium change events of a {@link CustomerTable}, stored as
 * the JSON bytes a source connector would produce and handed out as the {@link SinkRecord}s
 * Connect's {@link JsonConverter} makes of them, with what a table must hold for them
 * ({@link #expected}).
 *
 * <p>Keys are partitioned like Kafka's default partitioner does: murmur2 of the serialized key
 * modulo the partition count, so after {@link #grow} most keys go to another partition.
 */
final class RecordLog {
  private static final long BASE_TIMESTAMP = 1_767_225_600_000L;

  private final String topic;
  private final List<List<Stored>> partitions = new ArrayList<>();
  private final JsonConverter keys = converter(ConverterType.KEY);
  private final JsonConverter values = converter(ConverterType.VALUE);
  private final SourceTable source = new SourceTable();
  private final Map<Long, Integer> versions = new HashMap<>();
  private final Set<Position> bad = new HashSet<>();
  private CustomerTable table;
  /** How many changes the source table has had: each change's position is the next one ({@link SourcePosition#of}). */
  private long changes;

  RecordLog(String topic, int partitions) {
    this(topic, partitions, CustomerTable.standard());
  }

  RecordLog(String topic, int partitions, CustomerTable table) {
    this.topic = topic;
    this.table = table;
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
    upsert(id, UnaryOperator.identity());
  }

  /** {@link #upsert(long)} with the {@code after} row changed by {@code edit} (e.g. a huge value). */
  void upsert(long id, UnaryOperator<Struct> edit) {
    upsert(id, edit, Map.of());
  }

  private void upsert(long id, UnaryOperator<Struct> edit, Map<String, Struct> headers) {
    int version = versions.merge(id, 1, Integer::sum);
    SourcePosition at = SourcePosition.of(++changes);
    Struct event = table.upsert(source.contains(id) ? "u" : "c", id, version, at);
    Struct after = edit.apply(event.getStruct("after"));
    event.put("after", after);
    append(partitionOf(id), table.keySchema(), table.key(id), table.envelopeSchema(), event, headers);
    source.upsert(id, CustomerTable.columns(after), at);
  }

  /** The keys the source table has now. */
  Set<Long> ids() {
    return source.ids();
  }

  /** Whether the source table has a row {@code id}. */
  boolean contains(long id) {
    return source.contains(id);
  }

  /** Deletes {@code id}: a delete event, and with {@code tombstone} the tombstone after it. */
  void delete(long id, boolean tombstone) {
    delete(id, tombstone, Map.of());
  }

  private void delete(long id, boolean tombstone, Map<String, Struct> headers) {
    int version = versions.merge(id, 1, Integer::sum);
    SourcePosition at = SourcePosition.of(++changes);
    append(partitionOf(id), table.keySchema(), table.key(id), table.envelopeSchema(), table.delete(id, version, at), headers);
    if (tombstone) {
      append(partitionOf(id), table.keySchema(), table.key(id), null, null);
    }
    source.delete(id, at);
  }

  /**
   * A primary key update, as Debezium sends it: a delete of the old key naming the new one
   * ({@code __debezium.newkey}), its tombstone, and a create of the new key naming the old one
   * ({@code __debezium.oldkey}); the two keys may be in different partitions.
   */
  void changeKey(long from, long to) {
    if (!source.contains(from)) {
      upsert(to);
      return;
    }
    delete(from, true, Map.of("__debezium.newkey", table.key(to)));
    upsert(to, UnaryOperator.identity(), Map.of("__debezium.oldkey", table.key(from)));
  }

  /**
   * A {@code TRUNCATE} of the source table into {@code partition} (Debezium sends it with no key,
   * so it lands in one partition). With {@code truncate.enabled} the table is emptied; an append
   * table records it as a row with {@code _op} t.
   */
  void truncate(int partition) {
    SourcePosition at = SourcePosition.of(++changes);
    append(partition, null, null, table.envelopeSchema(), table.truncate(at));
    source.truncate(at);
  }

  /** {@code ALTER TABLE customers ADD COLUMN tier text}: every event from now on has the column. */
  void addTierColumn() {
    table = table.withTier();
  }

  /** The topic gets more partitions; the producer spreads keys over all of them from now on. */
  void grow(int partitionCount) {
    if (partitionCount <= partitions.size()) {
      throw new IllegalArgumentException("a topic's partitions can only grow: " + partitions.size() + " → " + partitionCount);
    }
    while (partitions.size() < partitionCount) {
      partitions.add(new ArrayList<>());
    }
  }

  /** Appends a record the sink must land as it is (no change to the source table's model). */
  long append(int partition, Schema keySchema, Object key, Schema valueSchema, Object value) {
    return append(partition, keySchema, key, valueSchema, value, Map.of());
  }

  private long append(int partition, Schema keySchema, Object key, Schema valueSchema, Object value, Map<String, Struct> headers) {
    byte[] keyBytes = key == null ? null : keys.fromConnectData(topic, keySchema, key);
    byte[] valueBytes = value == null ? null : values.fromConnectData(topic, valueSchema, value);
    List<Stored> log = partitions.get(partition);
    log.add(new Stored(keyBytes, valueBytes, headers));
    return log.size() - 1;
  }

  /** Appends a record the sink must not land (bad input): no table holds a row for it. */
  long appendBad(int partition, Schema keySchema, Object key, Schema valueSchema, Object value) {
    long offset = append(partition, keySchema, key, valueSchema, value);
    bad.add(new Position(topic, partition, offset));
    return offset;
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
      ConnectHeaders headers = new ConnectHeaders();
      stored.headers().forEach((name, header) -> headers.addStruct(name, header));
      records.add(new SinkRecord(topic, partition, key.schema(), key.value(), value.schema(), value.value(), at,
          BASE_TIMESTAMP + at, TimestampType.CREATE_TIME, headers));
    }
    return records;
  }

  /**
   * What the table must hold now: a row per change event in append cells ({@link #events}); in keyed cells what the cell's
   * CDC mode keeps of the source table ({@link SourceTable}): its rows (plain, change feed), with
   * their newest LSN (ordered), and the deleted keys marked (soft deletes), or every version of
   * every key (history; ordered, with the LSNs that began and ended each version).
   */
  Expected<?> expected(Cell cell) {
    if (cell.isAppend()) {
      return events();
    }
    // Without upsert.order.by a table is ordered by source position once it lists the topic as grown (a topic that grew, or a
    // partition that had not committed to it yet: docs/design.md, "Topics that grow"); then it keeps the positions, null in the
    // rows no change has written since. A table that never did has no such columns, which the model lets read as null.
    Set<String> positions = Set.of(SourceTable.SOURCE_LSN, SourceTable.VALID_TO_SOURCE_LSN);
    if (cell.updatesPartially()) {
      return source.partiallyUpdated().nullableIn(positions);
    }
    return switch (cell.mode()) {
      case PLAIN, CHANGE_FEED -> source.ordered().nullableIn(positions);
      case ORDERED -> source.ordered();
      case SOFT_DELETES -> source.softDeletes().nullableIn(positions);
      case HISTORY -> source.history().nullableIn(positions);
      case HISTORY_ORDERED -> source.history();
    };
  }

  /** The source table as the events describe it: id → row. */
  Expected<Long> upserts() {
    return source.upserts();
  }

  /**
   * Every change event of the log except bad input, as the row an append table holds for it: each
   * source change once, so the tombstone right after the delete of its key has none (the delete is
   * the change's row), while a tombstone after anything else is a delete of its own.
   */
  Expected<Position> events() {
    Map<Position, Map<String, Object>> events = new HashMap<>();
    for (int partition = 0; partition < partitions.size(); partition++) {
      SinkRecord previous = null;
      for (SinkRecord record : records(partition, 0, Integer.MAX_VALUE)) {
        Position position = new Position(topic, partition, record.kafkaOffset());
        if (!bad.contains(position) && !isTombstoneOfDelete(record.key(), record.value(),
            previous == null ? null : previous.key(), previous == null ? null : previous.value())) {
          events.put(position, eventRow(topic, partition, record.kafkaOffset(), record.timestamp(),
              (Struct) record.key(), (Struct) record.value()));
        }
        previous = record;
      }
    }
    return Expected.events(events);
  }

  /**
   * Which rows of a table (or of {@link #expected}) came from {@code partition}: in append cells the
   * rows of its events, in upsert cells the rows of the keys it carries now.
   */
  Predicate<Map<String, Object>> fromPartition(Cell cell, int partition) {
    if (cell.isAppend()) {
      return row -> Integer.valueOf(partition).equals(row.get(Expected.PARTITION));
    }
    return row -> partitionOf((Long) row.get(CustomerTable.ID)) == partition;
  }

  /** The partition Kafka's default partitioner gives {@code id}'s key with the current partition count. */
  int partitionOf(long id) {
    byte[] key = keys.fromConnectData(topic, table.keySchema(), table.key(id));
    return Utils.toPositive(Utils.murmur2(key)) % partitions.size();
  }

  private static JsonConverter converter(ConverterType type) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", "converter.type", type.getName()));
    return converter;
  }

  private record Stored(byte[] key, byte[] value, Map<String, Struct> headers) {}

  /**
   * The row an append table holds for a record (docs/design.md, "The reliability matrix"): the new
   * row of a create or update, the {@code before} row of a delete (its key columns when it has none,
   * and for a tombstone with no delete of its key just before it), no columns of the table for a truncate; then {@code _op}, {@code _ts_ms}
   * (the event's time, the record's for a tombstone) and the record's topic, partition and offset.
   */
  static Map<String, Object> eventRow(String topic, int partition, long offset, long recordTimestamp, Struct key, Struct value) {
    Map<String, Object> row = new LinkedHashMap<>();
    String op;
    long timestamp;
    if (value == null) {
      row.putAll(CustomerTable.columns(key));
      op = "d";
      timestamp = recordTimestamp;
    } else {
      op = value.getString("op");
      timestamp = value.getInt64("ts_ms");
      Struct image = switch (op) {
        case "c", "r", "u" -> value.getStruct("after");
        case "d" -> value.getStruct("before") != null ? value.getStruct("before") : key;
        default -> null;
      };
      if (image != null) {
        row.putAll(CustomerTable.columns(image));
      }
    }
    row.put(Expected.OP, op);
    row.put(Expected.TIMESTAMP, timestamp);
    row.put(Expected.TOPIC, topic);
    row.put(Expected.PARTITION, partition);
    row.put(Expected.OFFSET, offset);
    return row;
  }

  /**
   * Whether a record ({@code key}, {@code value}) is the Kafka tombstone Debezium sends right after
   * the delete of its key ({@code previousKey}, {@code previousValue}: the record before it in its
   * partition, null for none): an append table records that change once, with the delete's row
   * (docs/design.md, "Append tables").
   */
  static boolean isTombstoneOfDelete(Object key, Object value, Object previousKey, Object previousValue) {
    return value == null && previousValue instanceof Struct delete && "d".equals(delete.getString("op")) && key.equals(previousKey);
  }
}
