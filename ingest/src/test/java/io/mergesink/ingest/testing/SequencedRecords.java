package io.mergesink.ingest.testing;

import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium PostgreSQL change events of a table {@code public.items} with columns {@code id} (bigint
 * primary key), {@code name} and {@code version} (a column a source application keeps), carrying the source position ({@code source.lsn},
 * {@code source.ts_ms}) as the PostgreSQL connector writes it; snapshot rows are op {@code r}.
 */
public final class SequencedRecords {
  public static final String TOPIC = "pg.items";
  private static final Schema KEY = SchemaBuilder.struct().name("pg.Key").field("id", Schema.INT64_SCHEMA).build();
  private static final Schema ROW = SchemaBuilder.struct().name("pg.Value").optional()
      .field("id", Schema.INT64_SCHEMA).field("name", Schema.OPTIONAL_STRING_SCHEMA)
      .field("version", Schema.OPTIONAL_INT64_SCHEMA).build();
  private static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
      .field("db", Schema.STRING_SCHEMA).field("schema", Schema.STRING_SCHEMA).field("table", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.INT64_SCHEMA).field("lsn", Schema.OPTIONAL_INT64_SCHEMA).build();
  private static final Schema ENVELOPE = SchemaBuilder.struct().name("pg.Envelope")
      .field("before", ROW).field("after", ROW).field("source", SOURCE).field("op", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).build();

  private SequencedRecords() {}

  /**
   * A change of {@code id} ({@code op} c, u or r) to {@code name} and {@code version}, made at
   * {@code lsn} and {@code tsMs}, at a Kafka position.
   */
  public static KafkaRecord upsert(int partition, long offset, String op, long id, String name, long version, long lsn, long tsMs) {
    Struct after = new Struct(ROW).put("id", id).put("name", name).put("version", version);
    return record(partition, offset, id, envelope(op, null, after, lsn, tsMs));
  }

  /** A delete of {@code id} made at {@code lsn} and {@code tsMs}. */
  public static KafkaRecord delete(int partition, long offset, long id, long lsn, long tsMs) {
    return record(partition, offset, id, envelope("d", new Struct(ROW).put("id", id), null, lsn, tsMs));
  }

  /** A truncate of the table made at {@code lsn} and {@code tsMs}: no key, no row. */
  public static KafkaRecord truncate(int partition, long offset, long lsn, long tsMs) {
    return new KafkaRecord(new KafkaPartition(TOPIC, partition), offset, TOPIC, offset, null, null, ENVELOPE,
        envelope("t", null, null, lsn, tsMs), RecordHeaders.NONE);
  }

  /** The Kafka tombstone Debezium sends after a delete: no value, so no source position. */
  public static KafkaRecord tombstone(int partition, long offset, long id) {
    return new KafkaRecord(new KafkaPartition(TOPIC, partition), offset, TOPIC, offset, KEY, new Struct(KEY).put("id", id),
        null, null, RecordHeaders.NONE);
  }

  private static Struct envelope(String op, Struct before, Struct after, long lsn, long tsMs) {
    Struct source = new Struct(SOURCE).put("db", "shop").put("schema", "public").put("table", "items").put("ts_ms", tsMs)
        .put("lsn", lsn);
    return new Struct(ENVELOPE).put("before", before).put("after", after).put("source", source).put("op", op)
        .put("ts_ms", tsMs + 5);
  }

  private static KafkaRecord record(int partition, long offset, long id, Struct value) {
    return new KafkaRecord(new KafkaPartition(TOPIC, partition), offset, TOPIC, offset, KEY, new Struct(KEY).put("id", id),
        ENVELOPE, value, RecordHeaders.NONE);
  }
}
