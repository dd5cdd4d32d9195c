package io.mergesink.localconnect.debezium;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Fields of the {@code source} block of Debezium's PostgreSQL change events, in the order the
 * connector declares them, each with the schema it gives the field. An event carries the subset its
 * {@link DebeziumTable} chose, always in this order.
 */
public enum SourceField {
  /** The Debezium version that emitted the event. */
  VERSION("version", Schema.STRING_SCHEMA),
  /** {@code postgresql}. */
  CONNECTOR("connector", Schema.STRING_SCHEMA),
  /** The connector's topic prefix (its logical server name). */
  NAME("name", Schema.STRING_SCHEMA),
  /** When the change was committed in the database, in milliseconds since the epoch. */
  TS_MS("ts_ms", Schema.INT64_SCHEMA),
  /** Whether the event is part of a snapshot: {@code true}, {@code last}, {@code false}, ... (absent means false). */
  SNAPSHOT("snapshot", SchemaBuilder.string().optional().name("io.debezium.data.Enum").version(1)
      .parameter("allowed", "true,first,last,false,incremental").defaultValue("false").build()),
  /** The database name. */
  DB("db", Schema.STRING_SCHEMA),
  /** The PostgreSQL schema of the table. */
  SCHEMA("schema", Schema.STRING_SCHEMA),
  /** The table name. */
  TABLE("table", Schema.STRING_SCHEMA),
  /** The log sequence number of the change in the write-ahead log. */
  LSN("lsn", Schema.OPTIONAL_INT64_SCHEMA);

  private final String fieldName;
  private final Schema schema;

  SourceField(String fieldName, Schema schema) {
    this.fieldName = fieldName;
    this.schema = schema;
  }

  /** The field's name in the {@code source} struct. */
  public String fieldName() {
    return fieldName;
  }

  public Schema schema() {
    return schema;
  }
}
