package io.mergesink.core.merge;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * Fits a change set built for an older schema of its table to the schema a writer plans against
 * (docs/design.md, "Schema evolution"). Schema evolution only appends nullable columns (and may make
 * columns nullable), so a row of the older schema becomes a row of the newer one by appending nulls;
 * any other difference means someone else changed the table in a way this change set cannot follow.
 */
final class ChangeSetRealignment {
  private ChangeSetRealignment() {}

  /**
   * {@code changes} with every upsert padded to {@code tableSchema}; {@code changes} itself when it
   * names no row schema or was built for this one.
   *
   * @throws InvalidChangeSetException the table's schema is not the row schema with nullable
   *     columns appended (and columns made nullable); nothing was written
   */
  static ChangeSet to(String tableRoot, StructType tableSchema, ChangeSet changes) {
    StructType rowSchema = changes.rowSchema().orElse(null);
    if (rowSchema == null || rowSchema.equals(tableSchema)) {
      return changes;
    }
    String problem = problem(rowSchema, tableSchema);
    if (problem != null) {
      throw new InvalidChangeSetException(tableRoot, "its rows were built for the schema " + rowSchema.fieldNames()
          + " but the table's schema is now " + tableSchema + " (" + problem + "); only nullable columns added at the end can be filled in");
    }
    int added = tableSchema.size() - rowSchema.size();
    if (added == 0) {
      return changes.withUpserts(changes.upserts(), tableSchema);
    }
    List<Row> padded = new ArrayList<>(changes.upserts().size());
    for (Row row : changes.upserts()) {
      Object[] values = new Object[tableSchema.size()];
      System.arraycopy(row.toArray(), 0, values, 0, row.size());
      padded.add(Row.of(values));
    }
    return changes.withUpserts(padded, tableSchema);
  }

  /** Why rows of {@code from} cannot become rows of {@code to} by appending nulls, or null when they can. */
  private static String problem(StructType from, StructType to) {
    if (to.size() < from.size()) {
      return "it has fewer columns";
    }
    for (int i = 0; i < from.size(); i++) {
      StructField was = from.field(i);
      StructField is = to.field(i);
      if (!was.name().equals(is.name()) || !was.type().equals(is.type()) || (was.nullable() && !is.nullable())) {
        return "column " + (i + 1) + " was " + describe(was) + " and is " + describe(is);
      }
    }
    for (int i = from.size(); i < to.size(); i++) {
      if (!to.field(i).nullable()) {
        return "the added column '" + to.field(i).name() + "' is not nullable";
      }
    }
    return null;
  }

  private static String describe(StructField field) {
    return "'" + field.name() + "' " + field.type() + (field.nullable() ? "" : " not null");
  }
}
