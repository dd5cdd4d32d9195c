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
 * The version columns of history tables (docs/design.md, "History tables"): when a version of a
 * key began and ended (source timestamps, microseconds like every Delta TIMESTAMP) and whether it
 * is the key's current row, the column the key index reads to find it.
 */
final class HistoryColumns {
  static final String VALID_FROM = "__valid_from";
  static final String VALID_TO = "__valid_to";
  static final String CURRENT = "__current";
  private static final StructField[] FIELDS = {
      new StructField(VALID_FROM, PrimitiveType.TIMESTAMP, true),
      new StructField(VALID_TO, PrimitiveType.TIMESTAMP, true),
      new StructField(CURRENT, PrimitiveType.BOOLEAN, false)};

  private final Map<StructType, StructType> schemas = new HashMap<>();

  /** The schema of a version of a row of {@code valueSchema}: its columns, then the version columns. */
  StructType schema(StructType valueSchema) {
    return schemas.computeIfAbsent(valueSchema, HistoryColumns::withVersionFields);
  }

  /**
   * {@code value} as a row of {@link #schema}, its version columns not yet set (the change set
   * sets them once it knows the version's place): null times, current.
   */
  static Row unplaced(Row value) {
    Object[] values = new Object[value.size() + FIELDS.length];
    for (int i = 0; i < value.size(); i++) {
      values[i] = value.get(i);
    }
    values[value.size() + 2] = Boolean.TRUE;
    return Row.of(values);
  }

  /**
   * The column of an ordered history table that keeps, per closed version, the sequence of the
   * change that ended it (null: a delete without a sequence, in Kafka order), beside
   * {@code sequenceColumn}, which keeps the version's own: {@code __valid_to_} and the column's name
   * without its leading underscores ({@code __source_lsn}: {@code __valid_to_source_lsn}).
   */
  static String endColumn(String sequenceColumn) {
    return VALID_TO + "_" + sequenceColumn.replaceFirst("^_+", "");
  }

  /** The change's time as a TIMESTAMP (microseconds), or null when it has none. */
  static Long time(ChangeEvent event) {
    return event.timestampMs() == ChangeEvent.NO_TIMESTAMP ? null : Math.multiplyExact(event.timestampMs(), 1000L);
  }

  private static StructType withVersionFields(StructType columns) {
    StructType schema = columns;
    for (StructField field : FIELDS) {
      if (schema.indexOf(field.name()) >= 0) {
        throw new SchemaMismatchException("the record already has a column '" + field.name()
            + "', which history tables reserve for the version of a row");
      }
      schema = schema.add(field);
    }
    return schema;
  }
}
