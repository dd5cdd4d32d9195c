package io.mergesink.ingest.decode;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.options.PrimaryKeyMode;
import io.mergesink.ingest.record.KafkaRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link KafkaRecord} into a {@link ChangeEvent} (docs/design.md, "Decoding").
 *
 * <ul>
 *   <li>Debezium envelope (a value with {@code op} and {@code source} and one of {@code before},
 *       {@code after}, {@code message}): {@code c}, {@code r}, {@code u} → upsert of {@code after};
 *       {@code d} → delete (carrying {@code before} when the options keep delete images); {@code t} → truncate when enabled, else skip (logged once per topic);
 *       {@code m} → skip.
 *   <li>Tombstone (null value) → delete of the record key when deletes are enabled, else skip.
 *   <li>Any other value is a flattened row (ExtractNewRecordState): a delete when
 *       {@code __deleted} is "true" or {@code __op} is "d", else an upsert. All its fields,
 *       {@code __}-prefixed ones included, are ordinary columns.
 * </ul>
 *
 * <p>An event keeps its source transaction ({@link SourceTransaction}): the envelope's
 * {@code transaction} block, or a flattened row's {@code __transaction_id},
 * {@code __transaction_total_order} and {@code __transaction_data_collection_order}.
 *
 * Values are {@code Struct}s (any converter with schemas) or schemaless maps (see
 * {@link SchemalessConverter}). In {@code record_key} mode the key is the record key's fields (a
 * primitive key needs exactly one {@code primary.key.fields} entry naming the column); key
 * columns missing from the value are appended to the row. In {@code record_value} mode the key is
 * {@code primary.key.fields} of the row ({@code before} for envelope deletes, the record key for
 * tombstones).
 *
 * <p>Not thread-safe: one decoder per task.
 */
public final class RecordDecoder {
  private static final Logger LOG = LoggerFactory.getLogger(RecordDecoder.class);

  static final String BEFORE = "before";
  static final String AFTER = "after";
  static final String OP = "op";
  static final String SOURCE = "source";
  static final String MESSAGE = "message";
  static final String TS_MS = "ts_ms";
  static final String FLATTENED_DELETED = "__deleted";
  static final String FLATTENED_OP = "__op";
  static final String TRANSACTION = "transaction";
  static final String FLATTENED_TRANSACTION_ID = "__transaction_id";
  static final String FLATTENED_TRANSACTION_ORDER = "__transaction_total_order";
  static final String FLATTENED_TRANSACTION_TABLE_ORDER = "__transaction_data_collection_order";
  static final String OLD_KEY_HEADER = "__debezium.oldkey";
  static final String NEW_KEY_HEADER = "__debezium.newkey";
  private static final String DELETE_OP = "d";
  private static final String UPDATE_OP = "u";

  private final DecoderOptions options;
  private final ValueConverter values;
  private final SchemalessConverter schemaless;
  /** The key of a record without one, in a table that needs none. */
  private static final TypedRow NO_KEY = new TypedRow(StructType.of(), Row.of());
  private final StructTypeCache structTypes = new StructTypeCache();
  /** The source coordinates of the last event: consecutive events of a table share one instance in the buffer. */
  private SourceInfo lastSource = SourceInfo.NONE;
  private final Set<String> truncateSkipLogged = new HashSet<>();

  public RecordDecoder(DecoderOptions options) {
    this.options = options;
    this.values = new ValueConverter(options.unavailableValuePlaceholder());
    this.schemaless = new SchemalessConverter(values);
  }

  /**
   * Decodes one record.
   *
   * @throws DecodeException naming topic, partition and offset when the record has no usable
   *     key, an unknown op, a value of an unsupported shape, or a value that does not fit its schema
   */
  public ChangeEvent decode(KafkaRecord record) {
    try {
      return decodeUnchecked(record);
    } catch (ConversionException | ArithmeticException e) {
      throw DecodeException.of(record, e.getMessage(), e);
    }
  }

  private ChangeEvent decodeUnchecked(KafkaRecord record) {
    Object value = record.value();
    if (value == null) {
      if (!options.deleteEnabled()) {
        return skip(record);
      }
      TypedRow key = tombstoneKey(record);
      return event(record, Op.DELETE, key, null, SourceInfo.NONE, recordTimestamp(record), DELETE_OP);
    }
    if (!(value instanceof Struct) && !(value instanceof Map<?, ?>)) {
      throw DecodeException.of(record, "the value is a " + value.getClass().getName()
          + ", expected a Struct (converter with schemas) or a Map (schemaless JSON)");
    }
    if (isEnvelope(value)) {
      return inTransaction(decodeEnvelope(record, value), TransactionEvent.transactionOf(field(value, TRANSACTION)));
    }
    return inTransaction(decodeFlattened(record, value), flattenedTransaction(value));
  }

  private static ChangeEvent inTransaction(ChangeEvent event, SourceTransaction transaction) {
    return transaction == null ? event : event.inTransaction(transaction);
  }

  /** The {@code __transaction_*} fields ExtractNewRecordState adds when {@code add.fields} names them, or null. */
  private static SourceTransaction flattenedTransaction(Object row) {
    Object id = field(row, FLATTENED_TRANSACTION_ID);
    if (id == null) {
      return null;
    }
    return TransactionEvent.transactionOf(Map.of("id", id,
        "total_order", Objects.requireNonNullElse(field(row, FLATTENED_TRANSACTION_ORDER), 0L),
        "data_collection_order", Objects.requireNonNullElse(field(row, FLATTENED_TRANSACTION_TABLE_ORDER), 0L)));
  }

  private ChangeEvent decodeEnvelope(KafkaRecord record, Object envelope) {
    Object opValue = field(envelope, OP);
    if (!(opValue instanceof String op)) {
      throw DecodeException.of(record, "the Debezium envelope has no string 'op' field, found " + opValue);
    }
    SourceInfo source = sourceInfo(field(envelope, SOURCE));
    long timestamp = envelopeTimestamp(record, envelope);
    switch (op) {
      case "c", "r", "u" -> {
        Object after = field(envelope, AFTER);
        if (after == null) {
          throw DecodeException.of(record, "op '" + op + "' without an 'after' row");
        }
        TypedRow row = toRow(record, after, AFTER);
        TypedRow key = options.primaryKeyMode() == PrimaryKeyMode.RECORD_KEY
            ? recordKey(record)
            : project(record, row, AFTER);
        return event(record, Op.UPSERT, key, row, source, timestamp, op);
      }
      case "d" -> {
        if (!options.deleteEnabled()) {
          return skip(record);
        }
        Object before = field(envelope, BEFORE);
        TypedRow beforeRow = before == null || !(options.deleteImages() || options.primaryKeyMode() == PrimaryKeyMode.RECORD_VALUE)
            ? null
            : toRow(record, before, BEFORE);
        TypedRow key;
        if (options.primaryKeyMode() == PrimaryKeyMode.RECORD_KEY) {
          key = recordKey(record);
        } else {
          if (beforeRow == null) {
            throw DecodeException.of(record, "a delete without a 'before' row cannot give primary.key.fields "
                + options.primaryKeyFields() + " (primary.key.mode=record_value)");
          }
          key = project(record, beforeRow, BEFORE);
        }
        return event(record, Op.DELETE, key, options.deleteImages() ? beforeRow : null, source, timestamp, op);
      }
      case "t" -> {
        if (!options.truncateEnabled()) {
          if (truncateSkipLogged.add(record.routingTopic())) {
            LOG.warn("Skipping Debezium truncate events on topic {} (first at partition {}, offset {}): "
                + "truncate.enabled=false", record.routingTopic(), record.partition().partition(),
                record.offset());
          }
          return skip(record);
        }
        return new ChangeEvent(Op.TRUNCATE, null, null, null, null, source, timestamp, record.routingTopic(),
            record.topic(), record.partition().partition(), record.offset(), op);
      }
      case "m" -> {
        return skip(record);
      }
      default -> throw DecodeException.of(record, "unknown Debezium op '" + op + "', expected one of c, r, u, d, t, m");
    }
  }

  private ChangeEvent decodeFlattened(KafkaRecord record, Object value) {
    TypedRow row = toRow(record, value, "value");
    SourceInfo source = new SourceInfo(
        firstString(row, "__db", "__source_db"),
        firstString(row, "__schema", "__source_schema"),
        firstString(row, "__table", "__source_table"),
        firstNumber(row, "__lsn", "__source_lsn"),
        firstNumber(row, "__source_ts_ms"));
    long timestamp = firstLong(row, recordTimestamp(record), "__ts_ms", "__source_ts_ms");
    Object deleted = row.get(FLATTENED_DELETED);
    boolean isDelete = "true".equalsIgnoreCase(String.valueOf(deleted)) || DELETE_OP.equals(row.get(FLATTENED_OP));
    TypedRow key = options.primaryKeyMode() == PrimaryKeyMode.RECORD_KEY ? recordKey(record) : project(record, row, "value");
    if (isDelete) {
      // a rewritten delete (delete.handling.mode=rewrite) carries the row as it was
      return options.deleteEnabled() ? event(record, Op.DELETE, key, options.deleteImages() ? row : null, source, timestamp, DELETE_OP)
          : skip(record);
    }
    Object flattenedOp = row.get(FLATTENED_OP);
    return event(record, Op.UPSERT, key, row, source, timestamp, flattenedOp instanceof String sourceOp ? sourceOp : UPDATE_OP);
  }

  private TypedRow recordKey(KafkaRecord record) {
    Object key = record.key();
    if (key == null && !options.keysRequired()) {
      return NO_KEY;
    }
    if (key == null) {
      throw DecodeException.of(record, "the record has no key; primary.key.mode=record_key needs Kafka record keys "
          + "(or use primary.key.mode=record_value with primary.key.fields)");
    }
    TypedRow keyRow;
    if (key instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (entry.getValue() == null) {
          throw DecodeException.of(record, "primary key column '" + entry.getKey() + "' is null");
        }
      }
      keyRow = toRow(record, key, "key");
    } else if (key instanceof Struct) {
      keyRow = toRow(record, key, "key");
    } else {
      if (options.primaryKeyFields().size() != 1) {
        throw DecodeException.of(record, "the record key is a primitive " + key.getClass().getSimpleName()
            + "; set primary.key.fields to exactly one column name for it, found " + options.primaryKeyFields());
      }
      Schema keySchema = record.keySchema();
      Object converted = keySchema == null ? key : values.convert(key, keySchema, "key");
      var type = keySchema == null ? primitiveType(record, key) : SchemaConverter.toDataType(keySchema);
      keyRow = new TypedRow(StructType.of(new StructField(options.primaryKeyFields().get(0), type, false)),
          Row.of(converted));
      return requireNonNullKey(record, keyRow);
    }
    return options.primaryKeyFields().isEmpty() ? requireNonNullKey(record, keyRow) : project(record, keyRow, "key");
  }

  private TypedRow tombstoneKey(KafkaRecord record) {
    if (options.primaryKeyMode() == PrimaryKeyMode.RECORD_KEY) {
      return recordKey(record);
    }
    Object key = record.key();
    if (!(key instanceof Struct) && !(key instanceof Map<?, ?>)) {
      throw DecodeException.of(record, "a tombstone needs a record key holding primary.key.fields "
          + options.primaryKeyFields() + ", found " + (key == null ? "no key" : "a " + key.getClass().getSimpleName()));
    }
    return project(record, toRow(record, key, "key"), "key");
  }

  /** The {@code primary.key.fields} of {@code row}, in that order. */
  private TypedRow project(KafkaRecord record, TypedRow row, String path) {
    List<String> names = options.primaryKeyFields();
    int[] ordinals = new int[names.size()];
    for (int i = 0; i < ordinals.length; i++) {
      ordinals[i] = row.schema().indexOf(names.get(i));
      if (ordinals[i] < 0) {
        throw DecodeException.of(record, "primary key field '" + names.get(i) + "' is not in the " + path
            + " (fields: " + row.schema().fieldNames() + ")");
      }
    }
    List<StructField> fields = new ArrayList<>();
    for (int ordinal : ordinals) {
      StructField field = row.schema().field(ordinal);
      fields.add(new StructField(field.name(), field.type(), false));
    }
    return requireNonNullKey(record, new TypedRow(new StructType(fields), row.row().project(ordinals)));
  }

  private static TypedRow requireNonNullKey(KafkaRecord record, TypedRow key) {
    if (key.schema().size() == 0) {
      throw DecodeException.of(record, "the primary key has no columns");
    }
    for (int i = 0; i < key.row().size(); i++) {
      Object value = key.row().get(i);
      if (value == null || value instanceof io.mergesink.core.data.Unchanged) {
        throw DecodeException.of(record, "primary key column '" + key.schema().field(i).name() + "' is "
            + (value == null ? "null" : "an unavailable (TOAST) value"));
      }
    }
    return key;
  }

  /** {@code row} with the key columns it lacks appended. */
  private static TypedRow withKeyColumns(TypedRow row, TypedRow key) {
    StructType schema = row.schema();
    List<Object> extra = new ArrayList<>();
    for (int i = 0; i < key.schema().size(); i++) {
      StructField keyField = key.schema().field(i);
      if (schema.indexOf(keyField.name()) < 0) {
        schema = schema.add(keyField);
        extra.add(key.row().get(i));
      }
    }
    if (extra.isEmpty()) {
      return row;
    }
    Object[] values = new Object[schema.size()];
    Object[] original = row.row().toArray();
    System.arraycopy(original, 0, values, 0, original.length);
    for (int i = 0; i < extra.size(); i++) {
      values[original.length + i] = extra.get(i);
    }
    return new TypedRow(schema, Row.of(values));
  }

  private TypedRow toRow(KafkaRecord record, Object value, String path) {
    if (value instanceof Struct struct) {
      return new TypedRow(structTypes.structType(struct.schema()), values.toRow(struct, path));
    }
    if (value instanceof Map<?, ?> map) {
      return schemaless.toRow(map, path);
    }
    throw DecodeException.of(record, "'" + path + "' is a " + value.getClass().getName()
        + ", expected a Struct or a Map");
  }

  private static PrimitiveType primitiveType(KafkaRecord record, Object key) {
    if (key instanceof String) {
      return PrimitiveType.STRING;
    }
    if (key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte) {
      return PrimitiveType.LONG;
    }
    throw DecodeException.of(record, "cannot use a schemaless " + key.getClass().getSimpleName() + " record key");
  }

  private ChangeEvent event(KafkaRecord record, Op op, TypedRow key, TypedRow value, SourceInfo source, long timestamp,
      String sourceOp) {
    TypedRow row = value == null ? null : withKeyColumns(value, key);
    // a buffered change keeps its source coordinates and op: share equal ones instead of keeping each record's copies
    // (about 200 bytes per buffered change, measured by the bench's memory suite)
    if (source.equals(lastSource)) {
      source = lastSource;
    } else {
      lastSource = source;
    }
    return new ChangeEvent(op, key.row(), key.schema(), row == null ? null : row.row(),
        row == null ? null : row.schema(), source, timestamp, record.routingTopic(), record.topic(),
        record.partition().partition(), record.offset(), sourceOp == null ? null : sourceOp.intern(),
        op == Op.UPSERT ? previousKey(record, key) : null,
        op == Op.DELETE && record.headers().lastValue(NEW_KEY_HEADER) != null, record.value() == null, null);
  }

  /**
   * The key the row had before a primary-key change, from Debezium's {@code __debezium.oldkey}
   * header (a struct, or a map after the worker's header converter), in the order and types of
   * {@code key}; null when there is none or it does not have the key's columns.
   */
  private Row previousKey(KafkaRecord record, TypedRow key) {
    Object header = record.headers().lastValue(OLD_KEY_HEADER);
    if (!(header instanceof Struct || header instanceof Map<?, ?>)) {
      return null;
    }
    TypedRow old = toRow(record, header, OLD_KEY_HEADER + " header");
    Object[] values = new Object[key.schema().size()];
    for (int i = 0; i < values.length; i++) {
      int index = old.schema().indexOf(key.schema().field(i).name());
      Object value = index < 0 ? null : KeyValues.as(key.schema().field(i).type(), old.row().get(index));
      if (value == null) {
        return null;
      }
      values[i] = value;
    }
    return Row.of(values);
  }

  private static ChangeEvent skip(KafkaRecord record) {
    return ChangeEvent.skip(record.routingTopic(), record.topic(), record.partition().partition(),
        record.offset(), recordTimestamp(record));
  }

  static boolean isEnvelope(Object value) {
    return hasField(value, OP) && hasField(value, SOURCE)
        && (hasField(value, AFTER) || hasField(value, BEFORE) || hasField(value, MESSAGE));
  }

  private static boolean hasField(Object container, String name) {
    if (container instanceof Struct struct) {
      return struct.schema().field(name) != null;
    }
    return ((Map<?, ?>) container).containsKey(name);
  }

  private static Object field(Object container, String name) {
    if (container instanceof Struct struct) {
      return struct.schema().field(name) == null ? null : struct.get(name);
    }
    return container instanceof Map<?, ?> map ? map.get(name) : null;
  }

  private static SourceInfo sourceInfo(Object source) {
    if (source == null) {
      return SourceInfo.NONE;
    }
    return new SourceInfo(string(field(source, "db")), string(field(source, "schema")), string(field(source, "table")),
        number(field(source, "lsn")), number(field(source, TS_MS)));
  }

  private static long envelopeTimestamp(KafkaRecord record, Object envelope) {
    if (field(envelope, TS_MS) instanceof Number number) {
      return number.longValue();
    }
    Object source = field(envelope, SOURCE);
    if (source != null && field(source, TS_MS) instanceof Number number) {
      return number.longValue();
    }
    return recordTimestamp(record);
  }

  private static long recordTimestamp(KafkaRecord record) {
    return record.timestamp() == KafkaRecord.NO_TIMESTAMP ? ChangeEvent.NO_TIMESTAMP : record.timestamp();
  }

  private static String firstString(TypedRow row, String... names) {
    for (String name : names) {
      if (row.get(name) instanceof String text) {
        return text;
      }
    }
    return null;
  }

  private static long firstLong(TypedRow row, long fallback, String... names) {
    for (String name : names) {
      if (row.get(name) instanceof Number number) {
        return number.longValue();
      }
    }
    return fallback;
  }

  private static Long firstNumber(TypedRow row, String... names) {
    for (String name : names) {
      if (row.get(name) instanceof Number number) {
        return number.longValue();
      }
    }
    return null;
  }

  private static Long number(Object value) {
    return value instanceof Number number ? number.longValue() : null;
  }

  private static String string(Object value) {
    return value == null ? null : value.toString();
  }
}
