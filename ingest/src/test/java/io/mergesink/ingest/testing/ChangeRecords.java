package io.mergesink.ingest.testing;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import io.mergesink.localconnect.debezium.DebeziumTable;
import io.mergesink.localconnect.debezium.SourceField;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium change events of a PostgreSQL table {@code public.<table>} with columns {@code id}
 * (bigint primary key) and {@code name}, as a converter with schemas hands them to a front end,
 * and the rows the engine makes of them.
 */
public final class ChangeRecords {
  public static final String TOPIC = "pg.changes";
  /** Every table's schemas are named after the topic prefix alone, so all tables' events share one schema. */
  private static final String SCHEMA_NAMES = "pg";

  private static final DebeziumTable ANY_TABLE = table("any");
  private static final Schema KEY = ANY_TABLE.keySchema();
  private static final Schema ROW = ANY_TABLE.rowSchema();
  private static final Schema ENVELOPE = ANY_TABLE.envelopeSchema();

  private ChangeRecords() {}

  /** An insert or update of {@code id} in {@code table}, at {@code offset} of partition {@code partition}. */
  public static KafkaRecord upsert(int partition, long offset, String table, long id, String name) {
    Struct after = new Struct(ROW).put("id", id).put("name", name);
    return record(partition, offset, id, envelope(table, "u", null, after, offset));
  }

  /** A create of {@code row} by {@code events}, keyed by its {@code id}, at {@code offset} of partition 0. */
  public static KafkaRecord create(DebeziumTable events, long offset, Struct row) {
    return new KafkaRecord(new KafkaPartition(TOPIC, 0), offset, TOPIC, offset, events.keySchema(), events.key(row.get("id")),
        events.envelopeSchema(), events.create(row, offset), RecordHeaders.NONE);
  }

  /** A delete of {@code id} in {@code table}. */
  public static KafkaRecord delete(int partition, long offset, String table, long id) {
    return record(partition, offset, id, envelope(table, "d", new Struct(ROW).put("id", id), null, offset));
  }

  /** The Kafka tombstone of {@code id}: its key, no value (Debezium sends one after each delete). */
  public static KafkaRecord tombstone(int partition, long offset, long id) {
    return new KafkaRecord(new KafkaPartition(TOPIC, partition), offset, TOPIC, offset, KEY, new Struct(KEY).put("id", id), null,
        null, RecordHeaders.NONE);
  }

  /** A truncate of {@code table}: a Debezium truncate event, without key, before or after. */
  public static KafkaRecord truncate(int partition, long offset, String table) {
    return new KafkaRecord(new KafkaPartition(TOPIC, partition), offset, TOPIC, offset, null, null, ENVELOPE,
        envelope(table, "t", null, null, offset), RecordHeaders.NONE);
  }

  /**
   * The delete that starts a primary-key change of {@code oldId} to {@code newId}, as Debezium sends
   * it: with the new key in a {@code __debezium.newkey} header.
   */
  public static KafkaRecord keyChangeDelete(int partition, long offset, String table, long oldId, long newId) {
    Struct before = new Struct(ROW).put("id", oldId);
    return record(partition, offset, oldId, envelope(table, "d", before, null, offset), header("__debezium.newkey", newId));
  }

  /**
   * The create that ends a primary-key change of {@code oldId} to {@code newId} whose {@code name}
   * is an unchanged TOAST value: Debezium's placeholder, and the old key in a
   * {@code __debezium.oldkey} header.
   */
  public static KafkaRecord keyChangeCreate(int partition, long offset, String table, long oldId, long newId) {
    Struct after = new Struct(ROW).put("id", newId).put("name", "__debezium_unavailable_value");
    return record(partition, offset, newId, envelope(table, "c", null, after, offset), header("__debezium.oldkey", oldId));
  }

  /** A record no decoder accepts: an envelope with an unknown op. */
  public static KafkaRecord unknownOp(int partition, long offset, String table, long id) {
    return record(partition, offset, id, envelope(table, "x", null, new Struct(ROW).put("id", id).put("name", "?"), offset));
  }

  /** The row the table holds after {@link #upsert}. */
  public static Row row(long id, String name) {
    return Row.of(id, name);
  }

  private static DebeziumTable table(String table) {
    return DebeziumTable.builder("pg", "public", table).topic(SCHEMA_NAMES).database("shop")
        .column("id", Schema.INT64_SCHEMA).column("name", Schema.OPTIONAL_STRING_SCHEMA).key("id")
        .source(SourceField.DB, SourceField.SCHEMA, SourceField.TABLE)
        .build();
  }

  private static Struct envelope(String table, String op, Struct before, Struct after, long timestamp) {
    DebeziumTable events = table(table);
    return events.envelope(op, before, after, events.source(timestamp), timestamp);
  }

  private static KafkaRecord record(int partition, long offset, long id, Struct value) {
    return record(partition, offset, id, value, RecordHeaders.NONE);
  }

  private static KafkaRecord record(int partition, long offset, long id, Struct value, RecordHeaders headers) {
    return new KafkaRecord(new KafkaPartition(TOPIC, partition), offset, TOPIC, offset, KEY, new Struct(KEY).put("id", id),
        ENVELOPE, value, headers);
  }

  private static RecordHeaders header(String name, long id) {
    Struct key = new Struct(KEY).put("id", id);
    return header -> header.equals(name) ? key : null;
  }
}
