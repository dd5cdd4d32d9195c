package io.mergesink.ingest.decode;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import java.util.Objects;

/** A row together with its schema. */
public record TypedRow(StructType schema, Row row) {
  public TypedRow {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(row, "row");
    if (schema.size() != row.size()) {
      throw new IllegalArgumentException("row of " + row.size() + " values for schema " + schema);
    }
  }

  /** The value of the named column, or null when there is no such column. */
  public Object get(String column) {
    int index = schema.indexOf(column);
    return index < 0 ? null : row.get(index);
  }
}
