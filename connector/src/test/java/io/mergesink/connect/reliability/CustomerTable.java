package io.mergesink.connect.reliability;

import io.mergesink.connect.testing.CustomerEvents;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The source table {@code customers(id bigint primary key, name text, balance numeric(10,2),
 * updated_at timestamp)} and the change events Debezium's PostgreSQL connector sends for it
 * ({@code decimal.handling.mode=precise}, {@code time.precision.mode=adaptive}), in the shapes a
 * user's table can have: {@code name} nullable or {@code NOT NULL}; deletes with the full row
 * before ({@code REPLICA IDENTITY FULL}) or with none; and, after {@code ALTER TABLE customers ADD
 * COLUMN tier text}, one column more. Immutable: {@link #withTier()} is the altered table.
 */
final class CustomerTable {
  static final String ID = "id";
  static final String NAME = "name";
  static final String TIER = "tier";
  private static final long EPOCH_2026_MICROS = 1_767_225_600_000_000L;
  private static final long EPOCH_2026_MILLIS = 1_767_225_600_000L;
  /** Debezium's PostgreSQL {@code source} block, as the other tests' events have it. */
  private static final Schema SOURCE = CustomerEvents.VALUE.field("source").schema();

  /** Whether the source's {@code name} column is {@code NOT NULL}. */
  enum NameColumn {
    NULLABLE,
    NOT_NULL
  }

  /** What a delete event carries of the deleted row. */
  enum DeleteImage {
    /** {@code REPLICA IDENTITY FULL}: the whole row in {@code before}. */
    FULL_ROW,
    /** No {@code before} row at all: only the record key says what was deleted. */
    NONE
  }

  private final NameColumn nameColumn;
  private final DeleteImage deleteImage;
  private final boolean hasTier;
  private final Schema key;
  private final Schema row;
  private final Schema envelope;

  private CustomerTable(NameColumn nameColumn, DeleteImage deleteImage, boolean hasTier) {
    this.nameColumn = nameColumn;
    this.deleteImage = deleteImage;
    this.hasTier = hasTier;
    this.key = SchemaBuilder.struct().name("pg.public.customers.Key").field(ID, Schema.INT64_SCHEMA).build();
    SchemaBuilder rowBuilder = SchemaBuilder.struct().name("pg.public.customers.Value").optional()
        .field(ID, Schema.INT64_SCHEMA)
        .field(NAME, nameColumn == NameColumn.NOT_NULL ? Schema.STRING_SCHEMA : Schema.OPTIONAL_STRING_SCHEMA)
        .field("balance", Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build())
        .field("updated_at", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1).optional().build());
    if (hasTier) {
      rowBuilder.field(TIER, Schema.OPTIONAL_STRING_SCHEMA);
    }
    this.row = rowBuilder.build();
    this.envelope = SchemaBuilder.struct().name("pg.public.customers.Envelope")
        .field("before", row)
        .field("after", row)
        .field("source", SOURCE)
        .field("op", Schema.STRING_SCHEMA)
        .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
        .build();
  }

  /** The table every scenario starts from unless it says otherwise: nullable columns, full before images. */
  static CustomerTable standard() {
    return of(NameColumn.NULLABLE, DeleteImage.FULL_ROW);
  }

  static CustomerTable of(NameColumn nameColumn, DeleteImage deleteImage) {
    return new CustomerTable(nameColumn, deleteImage, false);
  }

  /** The table after {@code ALTER TABLE customers ADD COLUMN tier text}. */
  CustomerTable withTier() {
    return new CustomerTable(nameColumn, deleteImage, true);
  }

  Schema keySchema() {
    return key;
  }

  Schema envelopeSchema() {
    return envelope;
  }

  Struct key(long id) {
    return new Struct(key).put(ID, id);
  }

  /** An insert ({@code c}) or update ({@code u}) of customer {@code id} in its {@code version}. */
  Struct upsert(String op, long id, int version) {
    return envelope(op, null, row(id, version), version);
  }

  /** A delete of {@code id}, whose last version was {@code version - 1}. */
  Struct delete(long id, int version) {
    return envelope("d", deleteImage == DeleteImage.FULL_ROW ? row(id, version - 1) : null, null, version);
  }

  /** A {@code TRUNCATE customers}: no key, no rows. */
  Struct truncate(int version) {
    return envelope("t", null, null, version);
  }

  /** The columns of the row {@link #upsert} writes, as a table must hold them. */
  Map<String, Object> columns(long id, int version) {
    return columns(row(id, version));
  }

  /** The fields of a row struct by name, with Connect's values (Decimal as BigDecimal, timestamps as longs). */
  static Map<String, Object> columns(Struct struct) {
    Map<String, Object> columns = new LinkedHashMap<>();
    for (Field field : struct.schema().fields()) {
      columns.put(field.name(), struct.get(field));
    }
    return columns;
  }

  private Struct row(long id, int version) {
    Struct values = new Struct(row)
        .put(ID, id)
        .put(NAME, nameColumn == NameColumn.NULLABLE && version % 7 == 3 ? null : "customer-" + id + "-v" + version)
        .put("balance", BigDecimal.valueOf(id * 100 + version, 2))
        .put("updated_at", EPOCH_2026_MICROS + version * 1_000_000L + id);
    if (hasTier) {
      values.put(TIER, (id + version) % 4 == 0 ? null : "tier-" + (id + version) % 4);
    }
    return values;
  }

  private Struct envelope(String op, Struct before, Struct after, int version) {
    long ts = EPOCH_2026_MILLIS + version;
    Struct source = new Struct(SOURCE).put("version", "3.6.1.Final").put("connector", "postgresql")
        .put("name", "pg").put("ts_ms", ts).put("db", "shop").put("schema", "public").put("table", "customers");
    return new Struct(envelope).put("before", before).put("after", after).put("source", source).put("op", op).put("ts_ms", ts);
  }
}
