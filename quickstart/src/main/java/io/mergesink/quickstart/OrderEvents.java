package io.mergesink.quickstart;

import io.mergesink.localconnect.debezium.DebeziumTable;
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
  private static final DebeziumTable TABLE = DebeziumTable.builder(SERVER, "public", "orders").database(SERVER)
      .column("id", Schema.INT32_SCHEMA)
      .column("customer", Schema.OPTIONAL_STRING_SCHEMA)
      .column("status", Schema.OPTIONAL_STRING_SCHEMA)
      .column("quantity", Schema.OPTIONAL_INT32_SCHEMA)
      .column("amount", Decimal.builder(Order.AMOUNT_SCALE)
          .parameter("connect.decimal.precision", Integer.toString(Order.AMOUNT_PRECISION)).optional().build())
      .column("placed_on", SchemaBuilder.int32().name("io.debezium.time.Date").version(1).optional().build())
      .column("updated_at", SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").version(1).optional().build())
      .key("id")
      .envelopeVersion(2)
      .build();
  static final Schema KEY = TABLE.keySchema();
  static final Schema VALUE = TABLE.envelopeSchema();

  private OrderEvents() {}

  static Struct key(int id) {
    return TABLE.key(id);
  }

  /** A snapshot read ({@code r}), insert ({@code c}) or update ({@code u}) that leaves {@code order}. */
  static Struct upsert(String op, Order order) {
    long ts = order.updatedAt().toEpochMilli();
    return TABLE.envelope(op, null, row(order), TABLE.source(ts), ts);
  }

  /** A delete of {@code order} (its last state as {@code before}, as with {@code REPLICA IDENTITY FULL}). */
  static Struct delete(Order order) {
    return TABLE.delete(row(order), order.updatedAt().toEpochMilli());
  }

  private static Struct row(Order order) {
    return TABLE.newRow()
        .put("id", order.id())
        .put("customer", order.customer())
        .put("status", order.status())
        .put("quantity", order.quantity())
        .put("amount", order.amount())
        .put("placed_on", (int) order.placedOn().toEpochDay())
        .put("updated_at", DateTimeFormatter.ISO_INSTANT.format(order.updatedAt()));
  }
}
