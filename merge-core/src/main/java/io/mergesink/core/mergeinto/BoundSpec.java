package io.mergesink.core.mergeinto;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@link MergeSpec} checked against a table: column names resolved to positions, and the
 * decisions of its clauses for one source row. Immutable.
 */
final class BoundSpec {
  private final MergeSpec spec;
  private final StructType tableSchema;
  /** The source's positions of the table's key columns, in the table's key order. */
  private final int[] sourceKeyOrdinals;
  private final int[] tableKeyOrdinals;
  private final StructType targetReadSchema;

  private BoundSpec(MergeSpec spec, StructType tableSchema, int[] sourceKeyOrdinals, int[] tableKeyOrdinals, StructType targetReadSchema) {
    this.spec = spec;
    this.tableSchema = tableSchema;
    this.sourceKeyOrdinals = sourceKeyOrdinals;
    this.tableKeyOrdinals = tableKeyOrdinals;
    this.targetReadSchema = targetReadSchema;
  }

  /**
   * @param keySchema the table's primary key columns, in key order
   * @throws InvalidMergeException the spec joins on other columns than the key, a key column's
   *     type differs, or a clause names a column the table lacks
   */
  static BoundSpec bind(String tableRoot, MergeSpec spec, StructType tableSchema, StructType keySchema) {
    if (!new HashSet<>(spec.keyColumns()).equals(new HashSet<>(keySchema.fieldNames()))) {
      throw new InvalidMergeException(tableRoot, "the merge joins on " + spec.keyColumns() + ", but the table's primary key is "
          + keySchema.fieldNames() + "; a merge joins on the primary key");
    }
    int[] sourceKeys = new int[keySchema.size()];
    int[] tableKeys = new int[keySchema.size()];
    for (int i = 0; i < keySchema.size(); i++) {
      StructField key = keySchema.field(i);
      sourceKeys[i] = spec.sourceSchema().indexOf(key.name());
      tableKeys[i] = tableSchema.indexOf(key.name());
      StructField sourceKey = spec.sourceSchema().field(sourceKeys[i]);
      if (!sourceKey.type().equals(key.type())) {
        throw new InvalidMergeException(tableRoot, "key column '" + key.name() + "' is " + sourceKey.type() + " in the source and "
            + key.type() + " in the table");
      }
    }
    for (MergeClause clause : spec.matchedClauses()) {
      checkColumns(tableRoot, tableSchema, clause.targetColumns(), "read by a WHEN MATCHED clause");
      if (clause instanceof MergeClause.Update update) {
        checkColumns(tableRoot, tableSchema, update.assignments().stream().map(Assignment::column).toList(), "assigned by UPDATE SET");
      }
    }
    for (MergeClause.Insert insert : spec.notMatchedClauses()) {
      checkColumns(tableRoot, tableSchema, insert.assignments().stream().map(Assignment::column).toList(), "assigned by INSERT");
    }
    StructType targetRead = tableSchema.select(spec.targetColumns());
    return new BoundSpec(spec, tableSchema, sourceKeys, tableKeys, targetRead);
  }

  MergeSpec spec() {
    return spec;
  }

  /** The table's key of a source row, in key order. */
  Row key(Row source) {
    return source.project(sourceKeyOrdinals);
  }

  /** The target columns the MATCHED clauses read; empty when none does. */
  StructType targetReadSchema() {
    return targetReadSchema;
  }

  /** The row the first NOT MATCHED clause that applies inserts, or null when none applies. */
  Row insert(RowView source, Row sourceRow) {
    for (MergeClause.Insert clause : spec.notMatchedClauses()) {
      if (clause.condition().test(source, SchemaRowView.NO_TARGET)) {
        return build(clause.assignments(), null, source, SchemaRowView.NO_TARGET, sourceRow);
      }
    }
    return null;
  }

  /**
   * The decision of the MATCHED clauses for a matched row, as far as the source row alone tells:
   * {@link Decision#UNDECIDED} when a clause that needs the target row's values comes before it
   * is decided.
   */
  Decision matchedWithoutTarget(RowView source, Row sourceRow) {
    for (MergeClause clause : spec.matchedClauses()) {
      if (!clause.condition().targetColumns().isEmpty()) {
        return Decision.UNDECIDED;
      }
      if (clause.condition().test(source, SchemaRowView.NO_TARGET)) {
        return clause.targetColumns().isEmpty() ? decide(clause, source, SchemaRowView.NO_TARGET, sourceRow) : Decision.UNDECIDED;
      }
    }
    return Decision.NONE;
  }

  /** The decision of the MATCHED clauses for a matched row whose target columns {@code target} holds. */
  Decision matched(RowView source, RowView target, Row sourceRow) {
    for (MergeClause clause : spec.matchedClauses()) {
      if (clause.condition().test(source, target)) {
        return decide(clause, source, target, sourceRow);
      }
    }
    return Decision.NONE;
  }

  private Decision decide(MergeClause clause, RowView source, RowView target, Row sourceRow) {
    if (clause instanceof MergeClause.Update update) {
      return Decision.update(build(update.assignments(), Unchanged.VALUE, source, target, sourceRow));
    }
    return Decision.DELETE;
  }

  /** A table row: the source's key, the assigned values, {@code others} everywhere else. */
  private Row build(List<Assignment> assignments, Object others, RowView source, RowView target, Row sourceRow) {
    Object[] values = new Object[tableSchema.size()];
    if (others != null) {
      java.util.Arrays.fill(values, others);
    }
    for (int i = 0; i < tableKeyOrdinals.length; i++) {
      values[tableKeyOrdinals[i]] = sourceRow.get(sourceKeyOrdinals[i]);
    }
    for (Assignment assignment : assignments) {
      values[tableSchema.indexOf(assignment.column())] = assignment.value(source, target);
    }
    return Row.of(values);
  }

  private static void checkColumns(String tableRoot, StructType tableSchema, List<String> columns, String role) {
    Set<String> missing = new java.util.LinkedHashSet<>();
    for (String column : columns) {
      if (tableSchema.indexOf(column) < 0) {
        missing.add(column);
      }
    }
    if (!missing.isEmpty()) {
      throw new InvalidMergeException(tableRoot, "columns " + missing + " " + role + " are not columns of the table "
          + tableSchema.fieldNames());
    }
  }

  /** What the MATCHED clauses do with one matched row. */
  record Decision(Kind kind, Row row) {
    static final Decision UNDECIDED = new Decision(Kind.UNDECIDED, null);
    static final Decision NONE = new Decision(Kind.NONE, null);
    static final Decision DELETE = new Decision(Kind.DELETE, null);

    static Decision update(Row row) {
      return new Decision(Kind.UPDATE, row);
    }

    /** Whether the update sets every column, so that it does not depend on the target row. */
    boolean updatesWholeRow() {
      if (kind != Kind.UPDATE) {
        return false;
      }
      for (int i = 0; i < row.size(); i++) {
        if (row.get(i) == Unchanged.VALUE) {
          return false;
        }
      }
      return true;
    }

    enum Kind { UNDECIDED, NONE, DELETE, UPDATE }
  }
}
