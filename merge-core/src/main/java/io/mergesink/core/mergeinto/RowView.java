package io.mergesink.core.mergeinto;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;

/**
 * One row as conditions and assignments see it: values by column name, with the Java classes
 * {@link io.mergesink.core.types.DataType} documents (null for SQL NULL). A target row view holds
 * only the target columns the clauses declared.
 */
public interface RowView {

  /**
   * The value of {@code column}.
   *
   * @throws IllegalArgumentException the view has no such column (for a target row: no clause
   *     declared it among the target columns it reads)
   */
  Object get(String column);

  /** A view of {@code row}, whose values follow {@code schema}. */
  static RowView of(StructType schema, Row row) {
    return new SchemaRowView("row", schema, row);
  }
}
