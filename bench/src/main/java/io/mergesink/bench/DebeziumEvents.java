package io.mergesink.bench;

import java.math.BigDecimal;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium PostgreSQL change events of a {@code customers(id bigint primary key, name text,
 * balance numeric(12,2), updated_at timestamp, quantity int)} table, shaped as the connector emits
 * them ({@code decimal.handling.mode=precise}, {@code time.precision.mode=adaptive}). Values are a
 * pure function of (id, version). Copied in spirit from the connector's test {@code CustomerEvents};
 * the bench is main code and does not depend on test jars of our own modules.
 */
final class DebeziumEvents {
  static final Schema KEY = SchemaBuilder.struct().name("pg.public.customers.Key")
      .field("id", Schema.INT64_SCHEMA).build();
  private static final int BALANCE_SCALE = 2;
  private static final Schema ROW = SchemaBuilder.struct().name("pg.public.customers.Value").optional()
      .field("id", Schema.INT64_SCHEMA)
      .field("name", Schema.OPTIONAL_STRING_SCHEMA)
      .field("balance", Decimal.builder(BALANCE_SCALE).parameter("connect.decimal.precision", "12").optional().build())
      .field("updated_at", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1).optional().build())
      .field("quantity", Schema.OPTIONAL_INT32_SCHEMA)
      .build();
  private static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
      .field("version", Schema.STRING_SCHEMA)
      .field("connector", Schema.STRING_SCHEMA)
      .field("name", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.INT64_SCHEMA)
      .field("db", Schema.STRING_SCHEMA)
      .field("schema", Schema.STRING_SCHEMA)
      .field("table", Schema.STRING_SCHEMA)
      .field("lsn", Schema.OPTIONAL_INT64_SCHEMA)
      .build();
  static final Schema VALUE = SchemaBuilder.struct().name("pg.public.customers.Envelope")
      .field("before", ROW)
      .field("after", ROW)
      .field("source", SOURCE)
      .field("op", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
      .build();
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
    return new Struct(KEY).put("id", id);
  }

  /** An insert ({@code c}) or update ({@code u}) of customer {@code id} in its {@code version}. */
  static Struct upsert(String op, long id, int version) {
    return envelope(op, null, row(id, version), version);
  }

  /** A delete of customer {@code id}, whose last version was {@code version - 1}. */
  static Struct delete(long id, int version) {
    return envelope("d", row(id, version - 1), null, version);
  }

  private static Struct row(long id, int version) {
    return new Struct(ROW)
        .put("id", id)
        .put("name", name(id, version))
        .put("balance", BigDecimal.valueOf(id * CENTS_PER_ID + version, BALANCE_SCALE))
        .put("updated_at", EPOCH_2026_MICROS + version * MICROS_PER_SECOND + id)
        .put("quantity", (int) Math.floorMod(id * 31 + version, QUANTITY_BOUND));
  }

  private static Struct envelope(String op, Struct before, Struct after, int version) {
    long ts = EPOCH_2026_MILLIS + version;
    Struct source = new Struct(SOURCE).put("version", "3.6.1.Final").put("connector", "postgresql").put("name", "pg")
        .put("ts_ms", ts).put("db", "shop").put("schema", "public").put("table", "customers").put("lsn", ts);
    return new Struct(VALUE).put("before", before).put("after", after).put("source", source).put("op", op).put("ts_ms", ts);
  }
}
