package io.mergesink.core.changes;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.types.TypeChanges;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Fits a change set built for an older schema of its table to the schema a writer plans against
 * (docs/design.md, "Schema evolution"). Schema evolution only appends nullable columns, may make
 * columns nullable and may widen their types, so a row of the older schema becomes a row of the
 * newer one by widening its values and appending nulls; any other difference means someone else
 * changed the table in a way this change set cannot follow.
 */
public final class ChangeSetRealignment {
  private ChangeSetRealignment() {}

  /**
   * {@code changes} with every upsert and append padded to {@code tableSchema}; {@code changes} itself when it
   * names no row schema or was built for this one.
   *
   * @throws InvalidChangeSetException the table's schema is not the row schema with nullable
   *     columns appended (and columns made nullable or widened); nothing was written
   */
  public static ChangeSet to(String tableRoot, StructType tableSchema, ChangeSet changes) {
    StructType rowSchema = changes.rowSchema().orElse(null);
    if (rowSchema == null || rowSchema.equals(tableSchema)) {
      return changes;
    }
    String problem = problem(rowSchema, tableSchema);
    if (problem != null) {
      throw new InvalidChangeSetException(tableRoot, "its rows were built for the schema " + rowSchema.fieldNames()
          + " but the table's schema is now " + tableSchema + " (" + problem + "); only nullable columns added at the end and widened types can be filled in");
    }
    List<UnaryOperator<Object>> widenings = new ArrayList<>(rowSchema.size());
    boolean widens = false;
    for (int i = 0; i < rowSchema.size(); i++) {
      DataType from = rowSchema.field(i).type();
      DataType to = tableSchema.field(i).type();
      widenings.add(from.equals(to) ? null : TypeChanges.converter(from, to));
      widens |= !from.equals(to);
    }
    if (!widens && tableSchema.size() == rowSchema.size()) {
      return changes.withRows(changes.upserts(), changes.appends(), tableSchema);
    }
    return changes.withRows(realign(changes.upserts(), tableSchema, widenings), realign(changes.appends(), tableSchema, widenings),
        tableSchema);
  }

  private static List<Row> realign(List<Row> rows, StructType tableSchema, List<UnaryOperator<Object>> widenings) {
    List<Row> realigned = new ArrayList<>(rows.size());
    for (Row row : rows) {
      Object[] values = new Object[tableSchema.size()];
      for (int i = 0; i < row.size(); i++) {
        Object value = row.get(i);
        values[i] = value == null || value == Unchanged.VALUE || widenings.get(i) == null ? value : widenings.get(i).apply(value);
      }
      realigned.add(Row.of(values));
    }
    return realigned;
  }

  /** Why rows of {@code from} cannot become rows of {@code to} by appending nulls, or null when they can. */
  private static String problem(StructType from, StructType to) {
    if (to.size() < from.size()) {
      return "it has fewer columns";
    }
    for (int i = 0; i < from.size(); i++) {
      StructField was = from.field(i);
      StructField is = to.field(i);
      boolean typeFits = was.type().equals(is.type()) || TypeChanges.isSupported(was.type(), is.type());
      if (!was.name().equals(is.name()) || !typeFits || (was.nullable() && !is.nullable())) {
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
