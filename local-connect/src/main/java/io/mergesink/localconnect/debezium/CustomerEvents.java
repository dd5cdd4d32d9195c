package io.mergesink.localconnect.debezium;

import java.math.BigDecimal;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium PostgreSQL change events of a {@code customers(id bigint primary key, name text,
 * balance numeric(10,2), updated_at timestamp)} table, shaped exactly as the connector emits them
 * ({@code decimal.handling.mode=precise}, {@code time.precision.mode=adaptive}), with the column
 * values the sink must land for them. Values are a pure function of (id, version).
 */
public final class CustomerEvents {
  private static final DebeziumTable TABLE = DebeziumTable.builder("pg", "public", "customers").database("shop")
      .column("id", Schema.INT64_SCHEMA)
      .column("name", Schema.OPTIONAL_STRING_SCHEMA)
      .column("balance", Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build())
      .column("updated_at", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1).optional().build())
      .key("id")
      .build();
  public static final Schema KEY = TABLE.keySchema();
  public static final Schema VALUE = TABLE.envelopeSchema();
  /** The columns of {@link #expectedValues}, in order. */
  public static final List<String> COLUMNS = List.of("id", "name", "balance", "updated_at");
  /** 2026-01-01T00:00:00Z in microseconds since the epoch. */
  private static final long EPOCH_2026_MICROS = 1_767_225_600_000_000L;

  private CustomerEvents() {}

  public static Struct key(long id) {
    return TABLE.key(id);
  }

  /** An insert ({@code c}) or update ({@code u}) of customer {@code id} in its {@code version}. */
  public static Struct upsert(String op, long id, int version) {
    long ts = sourceTimestamp(version);
    return TABLE.envelope(op, null, row(id, version), TABLE.source(ts), ts);
  }

  /** A delete of customer {@code id}, whose last version was {@code version - 1}. */
  public static Struct delete(long id, int version) {
    return TABLE.delete(row(id, version - 1), sourceTimestamp(version));
  }

  /**
   * The values, in {@link #COLUMNS} order, of the table row the sink must hold after
   * {@link #upsert}: a new array on every call (for {@code Row.of}).
   */
  public static Object[] expectedValues(long id, int version) {
    return new Object[] {id, name(id, version), balance(id, version), updatedAt(id, version)};
  }

  /** The {@code source.ts_ms} (and {@code ts_ms}) of a customer's change in its {@code version}. */
  public static long sourceTimestamp(int version) {
    return 1_767_225_600_000L + version;
  }

  private static Struct row(long id, int version) {
    return TABLE.newRow()
        .put("id", id)
        .put("name", name(id, version))
        .put("balance", balance(id, version))
        .put("updated_at", updatedAt(id, version));
  }

  private static String name(long id, int version) {
    return version % 7 == 3 ? null : "customer-" + id + "-v" + version;
  }

  private static BigDecimal balance(long id, int version) {
    return BigDecimal.valueOf(id * 100 + version, 2);
  }

  private static long updatedAt(long id, int version) {
    return EPOCH_2026_MICROS + version * 1_000_000L + id;
  }
}
