package io.mergesink.ingest.decode;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import java.util.Objects;

/**
 * One decoded Kafka record.
 *
 * <ul>
 *   <li>{@code op}: what to do (see {@link Op}).
 *   <li>{@code key}, {@code keySchema}: the primary key columns, for {@link Op#UPSERT} and
 *       {@link Op#DELETE}; null otherwise.
 *   <li>{@code value}, {@code valueSchema}: the full new row for {@link Op#UPSERT} (always
 *       containing the key columns; a value may be {@link io.mergesink.core.data.Unchanged#VALUE});
 *       for {@link Op#DELETE} the row before the delete when the decoder keeps it (append tables)
 *       and the record has one, else null; null otherwise.
 *   <li>{@code source}: source database coordinates for routing; never null.
 *   <li>{@code timestampMs}: the change's time (Debezium {@code ts_ms}, else the Kafka record
 *       timestamp), or {@link #NO_TIMESTAMP}.
 *   <li>{@code sinkTopic}: the record's topic as the task sees it (after transforms), used by
 *       {@code ${topic}} routing.
 *   <li>{@code topic}, {@code partition}, {@code offset}: the position of the consumed Kafka
 *       record (before any transform renamed the topic); offsets in tables refer to these.
 *   <li>{@code sourceOp}: the operation as the source named it ({@code c}, {@code r}, {@code u},
 *       {@code d}, {@code t}), recorded in append tables' {@code _op} column.
 *   <li>{@code previousKey}: for the upsert that ends a primary-key change, the key the row had
 *       before (Debezium's {@code __debezium.oldkey} header), so unchanged (TOAST) columns can be
 *       taken from the old row; null otherwise.
 *   <li>{@code startsKeyChange}: whether this is the delete that starts a primary-key change
 *       (Debezium's {@code __debezium.newkey} header): the create of the new key follows it.
 *   <li>{@code tombstone}: whether this is the delete of a Kafka tombstone (a record with a key and
 *       no value), which Debezium sends after each delete event of the key.
 *   <li>{@code transaction}: the source transaction the change belongs to (Debezium's
 *       {@code transaction} block, with {@code provide.transaction.metadata=true}); null when the
 *       record carries none.
 * </ul>
 */
public record ChangeEvent(
    Op op,
    Row key,
    StructType keySchema,
    Row value,
    StructType valueSchema,
    SourceInfo source,
    long timestampMs,
    String sinkTopic,
    String topic,
    int partition,
    long offset,
    String sourceOp,
    Row previousKey,
    boolean startsKeyChange,
    boolean tombstone,
    SourceTransaction transaction) {

  /** {@link #timestampMs} when neither the event nor the Kafka record has a timestamp. */
  public static final long NO_TIMESTAMP = -1L;

  /** What a change event does to its table. */
  public enum Op {
    /** Insert or replace the row with {@code key} by {@code value}. */
    UPSERT,
    /** Delete the row with {@code key}. */
    DELETE,
    /** Delete every row of the table. */
    TRUNCATE,
    /** Nothing to write; the record only advances the partition's position. */
    SKIP
  }

  public ChangeEvent {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(sinkTopic, "sinkTopic");
    Objects.requireNonNull(topic, "topic");
    boolean keyed = op == Op.UPSERT || op == Op.DELETE;
    if (keyed != (key != null && keySchema != null)) {
      throw new IllegalArgumentException(op + " event at " + topic + "-" + partition + "@" + offset
          + (keyed ? " needs a key and key schema" : " must not carry a key"));
    }
    if ((value == null) != (valueSchema == null)) {
      throw new IllegalArgumentException(op + " event at " + topic + "-" + partition + "@" + offset
          + " must carry a value with its schema, or neither");
    }
    if (op == Op.UPSERT ? value == null : value != null && op != Op.DELETE) {
      throw new IllegalArgumentException(op + " event at " + topic + "-" + partition + "@" + offset
          + (op == Op.UPSERT ? " needs a value and value schema" : " must not carry a value"));
    }
    if (key != null && key.size() != keySchema.size()) {
      throw new IllegalArgumentException("key " + key + " does not match key schema " + keySchema);
    }
    if (startsKeyChange && op != Op.DELETE) {
      throw new IllegalArgumentException(op + " event at " + topic + "-" + partition + "@" + offset
          + " cannot start a primary-key change; only a delete does");
    }
    if (tombstone && (op != Op.DELETE || value != null)) {
      throw new IllegalArgumentException(op + " event at " + topic + "-" + partition + "@" + offset
          + " cannot be a tombstone; only a delete without a row is");
    }
    if (value != null && value.size() != valueSchema.size()) {
      throw new IllegalArgumentException("value of " + value.size() + " columns does not match schema " + valueSchema);
    }
  }

  /** An event that is neither the end of a primary-key change nor a tombstone, outside any source transaction. */
  public ChangeEvent(Op op, Row key, StructType keySchema, Row value, StructType valueSchema, SourceInfo source, long timestampMs,
      String sinkTopic, String topic, int partition, long offset, String sourceOp) {
    this(op, key, keySchema, value, valueSchema, source, timestampMs, sinkTopic, topic, partition, offset, sourceOp, null, false,
        false, null);
  }

  /** This event as part of {@code sourceTransaction}. */
  public ChangeEvent inTransaction(SourceTransaction sourceTransaction) {
    return new ChangeEvent(op, key, keySchema, value, valueSchema, source, timestampMs, sinkTopic, topic, partition, offset, sourceOp,
        previousKey, startsKeyChange, tombstone, sourceTransaction);
  }

  /** This event with its key, row and previous key replaced (e.g. aligned to a table's schema). */
  public ChangeEvent with(Op newOp, Row newKey, StructType newKeySchema, Row newValue, StructType newValueSchema, Row newPreviousKey) {
    return new ChangeEvent(newOp, newKey, newKeySchema, newValue, newValueSchema, source, timestampMs, sinkTopic, topic, partition,
        offset, sourceOp, newPreviousKey, startsKeyChange && newOp == Op.DELETE, tombstone && newOp == Op.DELETE && newValue == null,
        transaction);
  }

  /** An event that only advances the position. */
  public static ChangeEvent skip(String sinkTopic, String topic, int partition, long offset, long timestampMs) {
    return new ChangeEvent(Op.SKIP, null, null, null, null, SourceInfo.NONE, timestampMs, sinkTopic, topic,
        partition, offset, null);
  }

  /** "topic-partition@offset", for messages. */
  public String position() {
    return topic + "-" + partition + "@" + offset;
  }
}
