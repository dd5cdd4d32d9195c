package io.mergesink.bench;

import io.mergesink.localconnect.debezium.DebeziumTable;
import io.mergesink.localconnect.debezium.SourceField;
import java.math.BigDecimal;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium PostgreSQL change events of a {@code customers(id bigint primary key, name text,
 * balance numeric(12,2), updated_at timestamp, quantity int)} table, shaped as the connector emits
 * them ({@code decimal.handling.mode=precise}, {@code time.precision.mode=adaptive}). Values are a
 * pure function of (id, version). Unlike {@link io.mergesink.localconnect.debezium.CustomerEvents}
 * (the tests' table), names are never null and the events carry an {@code lsn}: the benchmarks'
 * inputs stay what their recorded results were measured on.
 */
final class DebeziumEvents {
  private static final int BALANCE_SCALE = 2;
  private static final DebeziumTable TABLE = DebeziumTable.builder("pg", "public", "customers").database("shop")
      .column("id", Schema.INT64_SCHEMA)
      .column("name", Schema.OPTIONAL_STRING_SCHEMA)
      .column("balance", Decimal.builder(BALANCE_SCALE).parameter("connect.decimal.precision", "12").optional().build())
      .column("updated_at", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1).optional().build())
      .column("quantity", Schema.OPTIONAL_INT32_SCHEMA)
      .key("id")
      .source(SourceField.VERSION, SourceField.CONNECTOR, SourceField.NAME, SourceField.TS_MS, SourceField.DB,
          SourceField.SCHEMA, SourceField.TABLE, SourceField.LSN)
      .build();
  static final Schema KEY = TABLE.keySchema();
  static final Schema VALUE = TABLE.envelopeSchema();
  /** 2026-01-01T00:00:00Z in microseconds and milliseconds since the epoch. */
  private static final long EPOCH_2026_MICROS = 1_767_225_600_000_000L;
  private static final long EPOCH_2026_MILLIS = 1_767_225_600_000L;
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long CENTS_PER_ID = 100;
  private static final int QUANTITY_BOUND = 1_000;

  private DebeziumEvents() {}

  /**
   * {@link #KEY} or {@link #VALUE} by its name: how {@link AvroBinaryConverter} knows the schema
   * out of band.
   *
   * @throws IllegalArgumentException for any other name
   */
  static Schema schema(String name) {
    for (Schema schema : new Schema[] {KEY, VALUE}) {
      if (schema.name().equals(name)) {
        return schema;
      }
    }
    throw new IllegalArgumentException("no Debezium event schema named '" + name + "'; known: " + KEY.name() + ", " + VALUE.name());
  }

  /** The {@code name} column of customer {@code id} in its {@code version}. */
  static String name(long id, int version) {
    return "customer-" + id + "-v" + version;
  }

  static Struct key(long id) {
    return TABLE.key(id);
  }

  /** An insert ({@code c}) or update ({@code u}) of customer {@code id} in its {@code version}. */
  static Struct upsert(String op, long id, int version) {
    return envelope(op, null, row(id, version), version);
  }

  /** A delete of customer {@code id}, whose last version was {@code version - 1}. */
  static Struct delete(long id, int version) {
    return envelope("d", row(id, version - 1), null, version);
  }

  /** The change event of a workload's {@code change}: the envelope of an insert, update or delete. */
  static Struct event(E2eWorkload.Change change) {
    return change.op().equals("d") ? delete(change.id(), change.version()) : upsert(change.op(), change.id(), change.version());
  }

  private static Struct row(long id, int version) {
    return TABLE.newRow()
        .put("id", id)
        .put("name", name(id, version))
        .put("balance", BigDecimal.valueOf(id * CENTS_PER_ID + version, BALANCE_SCALE))
        .put("updated_at", EPOCH_2026_MICROS + version * MICROS_PER_SECOND + id)
        .put("quantity", (int) Math.floorMod(id * 31 + version, QUANTITY_BOUND));
  }

  /** The change of {@code version}, committed at {@code EPOCH_2026_MILLIS + version}, which also serves as its LSN. */
  private static Struct envelope(String op, Struct before, Struct after, int version) {
    long ts = EPOCH_2026_MILLIS + version;
    return TABLE.envelope(op, before, after, TABLE.source(ts).put("lsn", ts), ts);
  }
}
