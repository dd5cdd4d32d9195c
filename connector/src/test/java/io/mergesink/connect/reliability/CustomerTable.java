package io.mergesink.connect.reliability;

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
  /**
   * Debezium's PostgreSQL {@code source} block with the fields the sink reads: where the change is
   * ({@code db}, {@code schema}, {@code table}), when it was made ({@code ts_ms}) and its position in
   * the write-ahead log ({@code lsn}, what {@code upsert.order.by=source.lsn} orders by).
   */
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

  /**
   * Where and when a change was made in the source: its WAL position ({@code source.lsn}) and time
   * ({@code source.ts_ms} and the envelope's {@code ts_ms}), both growing with every change in source order.
   */
  record SourcePosition(long lsn, long tsMs) {
    private static final long FIRST_LSN = 0x1_6B37_4D48L;
    /** Bytes of WAL between two changes: any positive step keeps the order. */
    private static final long LSN_STEP = 0x68;

    /** The position of the {@code sequence}th change (from 1) of a source table. */
    static SourcePosition of(long sequence) {
      return new SourcePosition(FIRST_LSN + sequence * LSN_STEP, EPOCH_2026_MILLIS + sequence);
    }

    /** {@link #tsMs} as a Delta TIMESTAMP holds it: microseconds since the epoch. */
    long tsMicros() {
      return tsMs * 1_000;
    }
  }

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

  /** An insert ({@code c}) or update ({@code u}) of customer {@code id} in its {@code version}, a change on its own. */
  Struct upsert(String op, long id, int version) {
    return upsert(op, id, version, SourcePosition.of(version));
  }

  /** An insert ({@code c}) or update ({@code u}) of customer {@code id} in its {@code version}, made {@code at}. */
  Struct upsert(String op, long id, int version, SourcePosition at) {
    return envelope(op, null, row(id, version), at);
  }

  /** A delete of {@code id}, whose last version was {@code version - 1}, made {@code at}. */
  Struct delete(long id, int version, SourcePosition at) {
    return envelope("d", deleteImage == DeleteImage.FULL_ROW ? row(id, version - 1) : null, null, at);
  }

  /** A {@code TRUNCATE customers} made {@code at}: no key, no rows. */
  Struct truncate(SourcePosition at) {
    return envelope("t", null, null, at);
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

  private Struct envelope(String op, Struct before, Struct after, SourcePosition at) {
    Struct source = new Struct(SOURCE).put("version", "3.6.1.Final").put("connector", "postgresql")
        .put("name", "pg").put("ts_ms", at.tsMs()).put("db", "shop").put("schema", "public").put("table", "customers")
        .put("lsn", at.lsn());
    return new Struct(envelope).put("before", before).put("after", after).put("source", source).put("op", op)
        .put("ts_ms", at.tsMs());
  }
}
