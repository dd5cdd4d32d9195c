package io.mergesink.core.mergeinto;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;

/** A {@link RowView} over a row of a known schema; {@code side} names it in errors ("source row", "target row"). */
record SchemaRowView(String side, StructType schema, Row row) implements RowView {
  /** The target of a clause that declared no target columns: every read is a mistake of the clause. */
  static final RowView NO_TARGET = column -> {
    throw new IllegalArgumentException("target column '" + column + "' read by a clause that declared no target columns"
        + " (declare them with Condition.withTarget or Assignment.withTarget)");
  };

  @Override
  public Object get(String column) {
    int ordinal = schema.indexOf(column);
    if (ordinal < 0) {
      throw new IllegalArgumentException(side + " has no column '" + column + "'; its columns are " + schema.fieldNames()
          + (side.startsWith("target") ? " (the target columns the clauses declared)" : ""));
    }
    return row.get(ordinal);
  }

  @Override
  public String toString() {
    return side + " " + row;
  }
}
