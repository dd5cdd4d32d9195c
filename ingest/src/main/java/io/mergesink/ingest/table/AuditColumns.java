package io.mergesink.ingest.table;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.align.SchemaMismatchException;
import io.mergesink.ingest.decode.ChangeEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * The rows of append (audit) tables: the change's columns (the new row; for a delete the row before
 * it when the event carries one, else its key) followed by where the change came from. Every change
 * event becomes one row.
 */
final class AuditColumns {
  static final String OP = "_op";
  static final String TIMESTAMP = "_ts_ms";
  static final String TOPIC = "_kafka_topic";
  static final String PARTITION = "_kafka_partition";
  static final String OFFSET = "_kafka_offset";
  private static final StructField[] FIELDS = {
      new StructField(OP, PrimitiveType.STRING, true),
      new StructField(TIMESTAMP, PrimitiveType.LONG, true),
      new StructField(TOPIC, PrimitiveType.STRING, false),
      new StructField(PARTITION, PrimitiveType.INTEGER, false),
      new StructField(OFFSET, PrimitiveType.LONG, false)};
  private static final StructType NO_COLUMNS = new StructType(java.util.List.of());

  private final Map<StructType, StructType> schemas = new HashMap<>();

  /** The schema of {@link #row} for this event: its own columns plus the audit columns. */
  StructType schema(ChangeEvent event) {
    return schemas.computeIfAbsent(columnsSchema(event), AuditColumns::withAuditFields);
  }

  /** The event as one audit row in {@link #schema} order. */
  Row row(ChangeEvent event) {
    Row columns = columns(event);
    Object[] values = new Object[columns.size() + FIELDS.length];
    for (int i = 0; i < columns.size(); i++) {
      values[i] = columns.get(i);
    }
    int next = columns.size();
    values[next++] = event.sourceOp();
    values[next++] = event.timestampMs() == ChangeEvent.NO_TIMESTAMP ? null : event.timestampMs();
    values[next++] = event.topic();
    values[next++] = event.partition();
    values[next] = event.offset();
    return Row.of(values);
  }

  /** Whether {@code column} is an audit column, not one of the change's own. */
  static boolean isAuditColumn(String column) {
    for (StructField field : FIELDS) {
      if (field.name().equals(column)) {
        return true;
      }
    }
    return false;
  }

  private static StructType columnsSchema(ChangeEvent event) {
    return switch (event.op()) {
      case UPSERT -> event.valueSchema();
      case DELETE -> event.value() == null ? event.keySchema() : event.valueSchema();
      default -> NO_COLUMNS;
    };
  }

  private static Row columns(ChangeEvent event) {
    return switch (event.op()) {
      case UPSERT -> event.value();
      case DELETE -> event.value() == null ? event.key() : event.value();
      default -> Row.of();
    };
  }

  private static StructType withAuditFields(StructType columns) {
    StructType schema = columns;
    for (StructField field : FIELDS) {
      if (schema.indexOf(field.name()) >= 0) {
        throw new SchemaMismatchException("the record already has a column '" + field.name()
            + "', which append tables reserve for the change's origin");
      }
      schema = schema.add(field);
    }
    return schema;
  }
}
