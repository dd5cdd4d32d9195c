package io.mergesink.localconnect.debezium;

import io.mergesink.core.data.Row;
import java.math.BigDecimal;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium PostgreSQL change events of a {@code customers(id bigint primary key, name text,
 * balance numeric(10,2), updated_at timestamp)} table, shaped exactly as the connector emits them
 * ({@code decimal.handling.mode=precise}, {@code time.precision.mode=adaptive}), with the rows the
 * sink must land for them.
 */
public final class CustomerEvents {
  public static final Schema KEY = SchemaBuilder.struct().name("pg.public.customers.Key")
      .field("id", Schema.INT64_SCHEMA).build();
  private static final Schema ROW = SchemaBuilder.struct().name("pg.public.customers.Value").optional()
      .field("id", Schema.INT64_SCHEMA)
      .field("name", Schema.OPTIONAL_STRING_SCHEMA)
      .field("balance", Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build())
      .field("updated_at", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1).optional().build())
      .build();
  private static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
      .field("version", Schema.STRING_SCHEMA)
      .field("connector", Schema.STRING_SCHEMA)
      .field("name", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.INT64_SCHEMA)
      .field("db", Schema.STRING_SCHEMA)
      .field("schema", Schema.STRING_SCHEMA)
      .field("table", Schema.STRING_SCHEMA)
      .build();
  public static final Schema VALUE = SchemaBuilder.struct().name("pg.public.customers.Envelope")
      .field("before", ROW)
      .field("after", ROW)
      .field("source", SOURCE)
      .field("op", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
      .build();
  private static final long EPOCH_2026_MICROS = 1_767_225_600_000_000L;

  private CustomerEvents() {}

  public static Struct key(long id) {
    return new Struct(KEY).put("id", id);
  }

  /** An insert ({@code c}) or update ({@code u}) of customer {@code id} in its {@code version}. */
  public static Struct upsert(String op, long id, int version) {
    return envelope(op, null, row(id, version), version);
  }

  public static Struct delete(long id, int version) {
    return envelope("d", row(id, version - 1), null, version);
  }

  /** The table row the sink must hold after {@link #upsert}. */
  /** The columns of {@link #expectedRow}, in order. */
  public static final List<String> COLUMNS = List.of("id", "name", "balance", "updated_at");

  public static Row expectedRow(long id, int version) {
    return Row.of(id, name(id, version), balance(id, version), EPOCH_2026_MICROS + version * 1_000_000L + id);
  }

  private static Struct row(long id, int version) {
    return new Struct(ROW)
        .put("id", id)
        .put("name", name(id, version))
        .put("balance", balance(id, version))
        .put("updated_at", EPOCH_2026_MICROS + version * 1_000_000L + id);
  }

  private static String name(long id, int version) {
    return version % 7 == 3 ? null : "customer-" + id + "-v" + version;
  }

  private static BigDecimal balance(long id, int version) {
    return BigDecimal.valueOf(id * 100 + version, 2);
  }

  /** The {@code source.ts_ms} (and {@code ts_ms}) of a customer's change in its {@code version}. */
  public static long sourceTimestamp(int version) {
    return 1_767_225_600_000L + version;
  }

  private static Struct envelope(String op, Struct before, Struct after, int version) {
    long ts = sourceTimestamp(version);
    Struct source = new Struct(SOURCE).put("version", "3.6.1.Final").put("connector", "postgresql").put("name", "pg")
        .put("ts_ms", ts).put("db", "shop").put("schema", "public").put("table", "customers");
    return new Struct(VALUE).put("before", before).put("after", after).put("source", source).put("op", op).put("ts_ms", ts);
  }
}
