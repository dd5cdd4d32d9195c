package io.mergesink.localconnect.debezium;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The change events Debezium's PostgreSQL connector emits for one table: the Connect schemas of
 * their key and value, named as the connector names them ({@code <topic>.Key},
 * {@code <topic>.Value} for a row, {@code <topic>.Envelope} for the value,
 * {@code io.debezium.connector.postgresql.Source} for the {@code source} block, where the topic is
 * {@code <topic prefix>.<schema>.<table>}), and the key structs and envelopes ({@code before},
 * {@code after}, {@code source}, {@code op}, {@code ts_ms}) of its changes.
 *
 * <p>Immutable. Which {@linkplain SourceField source fields}, the envelope's schema version and the
 * {@code transaction} block are chosen per table, so that a table's events are exactly those a
 * given connector configuration (or an older Debezium) sends.
 */
public final class DebeziumTable {
  /** The name of the {@code source} block's schema. */
  public static final String SOURCE_SCHEMA_NAME = "io.debezium.connector.postgresql.Source";
  /** The Debezium version the events claim in {@code source.version}. */
  public static final String DEBEZIUM_VERSION = "3.6.1.Final";
  /** The source fields of a table whose builder chose none. */
  public static final Set<SourceField> DEFAULT_SOURCE = Collections.unmodifiableSet(EnumSet.of(SourceField.VERSION,
      SourceField.CONNECTOR, SourceField.NAME, SourceField.TS_MS, SourceField.DB, SourceField.SCHEMA, SourceField.TABLE));

  private final Builder spec;
  private final Schema keySchema;
  private final Schema rowSchema;
  private final Schema sourceSchema;
  private final Schema envelopeSchema;

  private DebeziumTable(Builder spec) {
    this.spec = spec;
    SchemaBuilder row = SchemaBuilder.struct().name(spec.topic + ".Value").optional();
    spec.columns.forEach(column -> row.field(column.name(), column.schema()));
    this.rowSchema = row.build();
    SchemaBuilder key = SchemaBuilder.struct().name(spec.topic + ".Key");
    for (String name : spec.keyFields) {
      Field column = rowSchema.field(name);
      if (column == null) {
        throw new IllegalArgumentException("key field '" + name + "' is not a column of " + spec.topic + "; columns: " + spec.columns);
      }
      key.field(name, column.schema());
    }
    this.keySchema = key.build();
    SchemaBuilder source = SchemaBuilder.struct().name(SOURCE_SCHEMA_NAME);
    spec.sourceFields.forEach(field -> source.field(field.fieldName(), field.schema()));
    this.sourceSchema = source.build();
    SchemaBuilder envelope = SchemaBuilder.struct().name(spec.topic + ".Envelope");
    if (spec.envelopeVersion != null) {
      envelope.version(spec.envelopeVersion);
    }
    envelope.field("before", rowSchema).field("after", rowSchema).field("source", sourceSchema)
        .field("op", Schema.STRING_SCHEMA).field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA);
    if (spec.transaction) {
      envelope.field("transaction", SchemaBuilder.struct().name("event.block").optional().version(1)
          .field("id", Schema.STRING_SCHEMA).field("total_order", Schema.INT64_SCHEMA).build());
    }
    this.envelopeSchema = envelope.build();
  }

  /**
   * A table {@code <schema>.<table>} of the database a connector with topic prefix
   * {@code topicPrefix} captures.
   */
  public static Builder builder(String topicPrefix, String schema, String table) {
    return new Builder(topicPrefix, schema, table);
  }

  /** The topic the schemas are named after. */
  public String topic() {
    return spec.topic;
  }

  public Schema keySchema() {
    return keySchema;
  }

  /** The schema of {@code before} and {@code after}: optional, the table's columns in order. */
  public Schema rowSchema() {
    return rowSchema;
  }

  public Schema sourceSchema() {
    return sourceSchema;
  }

  /** The schema of an event's value. */
  public Schema envelopeSchema() {
    return envelopeSchema;
  }

  /** This table with one more column at the end, as Debezium describes it after {@code ALTER TABLE ADD COLUMN}. */
  public DebeziumTable withColumn(String name, Schema schema) {
    return spec.copy().column(name, schema).build();
  }

  /** The key struct of a row whose key fields hold {@code values}, in the order the builder named them. */
  public Struct key(Object... values) {
    if (values.length != spec.keyFields.size()) {
      throw new IllegalArgumentException(values.length + " key values for " + spec.topic + ", whose key is " + spec.keyFields);
    }
    Struct key = new Struct(keySchema);
    for (int i = 0; i < values.length; i++) {
      key.put(spec.keyFields.get(i), values[i]);
    }
    return key;
  }

  /** An empty row, for {@code before} or {@code after}. */
  public Struct newRow() {
    return new Struct(rowSchema);
  }

  /**
   * The {@code source} block of a change committed at {@code tsMs}: the table's constant fields
   * ({@code version}, {@code connector}, {@code name}, {@code db}, {@code schema}, {@code table}) and
   * {@code ts_ms}, as far as the table's source has them. The other fields ({@code snapshot},
   * {@code lsn}) are null for the caller to put.
   */
  public Struct source(long tsMs) {
    Struct source = new Struct(sourceSchema);
    for (SourceField field : spec.sourceFields) {
      Object value = switch (field) {
        case VERSION -> DEBEZIUM_VERSION;
        case CONNECTOR -> "postgresql";
        case NAME -> spec.topicPrefix;
        case TS_MS -> tsMs;
        case DB -> spec.database;
        case SCHEMA -> spec.schema;
        case TABLE -> spec.table;
        case SNAPSHOT, LSN -> null;
      };
      source.put(field.fieldName(), value);
    }
    return source;
  }

  /** An insert ({@code c}) of {@code after}, committed at {@code tsMs} (also the event's {@code ts_ms}). */
  public Struct create(Struct after, long tsMs) {
    return envelope("c", null, after, source(tsMs), tsMs);
  }

  /** A snapshot read ({@code r}) of {@code after}. */
  public Struct read(Struct after, long tsMs) {
    return envelope("r", null, after, source(tsMs), tsMs);
  }

  /** An update ({@code u}); {@code before} is null unless the table has {@code REPLICA IDENTITY FULL}. */
  public Struct update(Struct before, Struct after, long tsMs) {
    return envelope("u", before, after, source(tsMs), tsMs);
  }

  /** A delete ({@code d}) of {@code before}: the deleted row (only its key unless {@code REPLICA IDENTITY FULL}), no {@code after}. */
  public Struct delete(Struct before, long tsMs) {
    return envelope("d", before, null, source(tsMs), tsMs);
  }

  /** A {@code TRUNCATE} ({@code t}): neither {@code before} nor {@code after} (and a Kafka record without key). */
  public Struct truncate(long tsMs) {
    return envelope("t", null, null, source(tsMs), tsMs);
  }

  /**
   * An event with operation code {@code op} (Debezium's {@code c}, {@code r}, {@code u},
   * {@code d}, {@code t}, or any other for a malformed event), {@code source} from
   * {@link #source} and the event's {@code ts_ms} (null when the connector left it out).
   */
  public Struct envelope(String op, Struct before, Struct after, Struct source, Long tsMs) {
    return new Struct(envelopeSchema).put("before", before).put("after", after).put("source", source).put("op", op)
        .put("ts_ms", tsMs);
  }

  /** What a {@link DebeziumTable} is made of; {@link #build} checks it. */
  public static final class Builder {
    private final String topicPrefix;
    private final String schema;
    private final String table;
    private String topic;
    private String database;
    private final List<Field> columns = new ArrayList<>();
    private final List<String> keyFields = new ArrayList<>();
    private Set<SourceField> sourceFields = DEFAULT_SOURCE;
    private Integer envelopeVersion;
    private boolean transaction;

    private Builder(String topicPrefix, String schema, String table) {
      this.topicPrefix = Objects.requireNonNull(topicPrefix, "topicPrefix");
      this.schema = Objects.requireNonNull(schema, "schema");
      this.table = Objects.requireNonNull(table, "table");
      this.topic = topicPrefix + "." + schema + "." + table;
    }

    /**
     * Names the schemas after {@code topic} instead of {@code <topic prefix>.<schema>.<table>}, as
     * a transform that routes the events to another topic renames them.
     */
    public Builder topic(String topic) {
      this.topic = Objects.requireNonNull(topic, "topic");
      return this;
    }

    /** The database name, for {@code source.db}. */
    public Builder database(String database) {
      this.database = Objects.requireNonNull(database, "database");
      return this;
    }

    /** The next column of the table, with the Connect schema the connector gives its type. */
    public Builder column(String name, Schema schema) {
      columns.add(new Field(name, columns.size(), schema));
      return this;
    }

    /** The primary-key columns, in key order. */
    public Builder key(String... fields) {
      keyFields.clear();
      keyFields.addAll(List.of(fields));
      return this;
    }

    /** The fields of the {@code source} block; {@link #DEFAULT_SOURCE} unless set. */
    public Builder source(SourceField first, SourceField... rest) {
      this.sourceFields = EnumSet.of(first, rest);
      return this;
    }

    /** The envelope schema's version (Debezium versions it from 2.0 on); none unless set. */
    public Builder envelopeVersion(int version) {
      this.envelopeVersion = version;
      return this;
    }

    /** Adds the optional {@code transaction} block ({@code id}, {@code total_order}) after {@code ts_ms}. */
    public Builder transaction() {
      this.transaction = true;
      return this;
    }

    /**
     * @throws IllegalArgumentException if a key field is not a column
     * @throws IllegalStateException if the table has no columns or no key, or its source has {@code db} and no database was given
     */
    public DebeziumTable build() {
      if (columns.isEmpty() || keyFields.isEmpty()) {
        throw new IllegalStateException("table " + topic + " needs columns and a key; columns: " + columns + ", key: " + keyFields);
      }
      if (sourceFields.contains(SourceField.DB) && database == null) {
        throw new IllegalStateException("table " + topic + ": source.db needs a database name");
      }
      return new DebeziumTable(copy());
    }

    private Builder copy() {
      Builder copy = new Builder(topicPrefix, schema, table);
      copy.topic = topic;
      copy.database = database;
      columns.forEach(column -> copy.column(column.name(), column.schema()));
      copy.keyFields.addAll(keyFields);
      copy.sourceFields = EnumSet.copyOf(sourceFields);
      copy.envelopeVersion = envelopeVersion;
      copy.transaction = transaction;
      return copy;
    }
  }
}
