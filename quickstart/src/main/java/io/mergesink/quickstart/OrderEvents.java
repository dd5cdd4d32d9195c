package io.mergesink.quickstart;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium PostgreSQL change events of the demo's {@code public.orders} table, shaped as the
 * connector emits them with {@code config/debezium-postgres-source.json}
 * ({@code decimal.handling.mode=precise}, {@code time.precision.mode=adaptive_time_microseconds}):
 * {@code integer} → INT32, {@code text} → STRING, {@code numeric(10,2)} → Connect Decimal,
 * {@code date} → {@code io.debezium.time.Date} (days), {@code timestamptz} →
 * {@code io.debezium.time.ZonedTimestamp} (ISO-8601 text).
 */
final class OrderEvents {
  private static final String SERVER = "shop";
  private static final String DEBEZIUM_VERSION = "3.6.1.Final";
  static final Schema KEY = SchemaBuilder.struct().name(SERVER + ".public.orders.Key")
      .field("id", Schema.INT32_SCHEMA).build();
  private static final Schema ROW = SchemaBuilder.struct().name(SERVER + ".public.orders.Value").optional()
      .field("id", Schema.INT32_SCHEMA)
      .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
      .field("status", Schema.OPTIONAL_STRING_SCHEMA)
      .field("quantity", Schema.OPTIONAL_INT32_SCHEMA)
      .field("amount", Decimal.builder(Order.AMOUNT_SCALE)
          .parameter("connect.decimal.precision", Integer.toString(Order.AMOUNT_PRECISION)).optional().build())
      .field("placed_on", SchemaBuilder.int32().name("io.debezium.time.Date").version(1).optional().build())
      .field("updated_at", SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").version(1).optional().build())
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
  static final Schema VALUE = SchemaBuilder.struct().name(SERVER + ".public.orders.Envelope").version(2)
      .field("before", ROW)
      .field("after", ROW)
      .field("source", SOURCE)
      .field("op", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
      .build();

  private OrderEvents() {}

  static Struct key(int id) {
    return new Struct(KEY).put("id", id);
  }

  /** A snapshot read ({@code r}), insert ({@code c}) or update ({@code u}) that leaves {@code order}. */
  static Struct upsert(String op, Order order) {
    return envelope(op, null, row(order), order.updatedAt());
  }

  /** A delete of {@code order} (its last state as {@code before}, as with {@code REPLICA IDENTITY FULL}). */
  static Struct delete(Order order) {
    return envelope("d", row(order), null, order.updatedAt());
  }

  private static Struct row(Order order) {
    return new Struct(ROW)
        .put("id", order.id())
        .put("customer", order.customer())
        .put("status", order.status())
        .put("quantity", order.quantity())
        .put("amount", order.amount())
        .put("placed_on", (int) order.placedOn().toEpochDay())
        .put("updated_at", DateTimeFormatter.ISO_INSTANT.format(order.updatedAt()));
  }

  private static Struct envelope(String op, Struct before, Struct after, Instant at) {
    long ts = at.toEpochMilli();
    Struct source = new Struct(SOURCE).put("version", DEBEZIUM_VERSION).put("connector", "postgresql")
        .put("name", SERVER).put("ts_ms", ts).put("db", SERVER).put("schema", "public").put("table", "orders");
    return new Struct(VALUE).put("before", before).put("after", after).put("source", source).put("op", op)
        .put("ts_ms", ts);
  }
}
