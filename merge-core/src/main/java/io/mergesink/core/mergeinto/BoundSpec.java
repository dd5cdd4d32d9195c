package io.mergesink.core.mergeinto;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
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
  private final List<BoundClause> matched;
  private final List<BoundClause> notMatched;

  private BoundSpec(MergeSpec spec, StructType tableSchema, int[] sourceKeyOrdinals, int[] tableKeyOrdinals, StructType targetReadSchema) {
    this.spec = spec;
    this.tableSchema = tableSchema;
    this.sourceKeyOrdinals = sourceKeyOrdinals;
    this.tableKeyOrdinals = tableKeyOrdinals;
    this.targetReadSchema = targetReadSchema;
    this.matched = new ArrayList<>();
    for (MergeClause clause : spec.matchedClauses()) {
      matched.add(new BoundClause(clause, clause instanceof MergeClause.Update update ? update.assignments() : null));
    }
    this.notMatched = new ArrayList<>();
    for (MergeClause.Insert clause : spec.notMatchedClauses()) {
      notMatched.add(new BoundClause(clause, clause.assignments()));
    }
  }

  /**
   * @param keySchema the table's primary key columns, in key order
   * @throws InvalidMergeException the spec joins on other columns than the key, a key column's
   *     type differs, or a clause names a column the table or the source lacks
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
      checkColumns(tableRoot, tableSchema, clause.targetColumns(), "read by a WHEN MATCHED clause are not columns of the table");
      if (clause instanceof MergeClause.Update update) {
        checkAssignments(tableRoot, spec.sourceSchema(), tableSchema, update.assignments(), "UPDATE SET");
      }
    }
    for (MergeClause.Insert insert : spec.notMatchedClauses()) {
      checkAssignments(tableRoot, spec.sourceSchema(), tableSchema, insert.assignments(), "INSERT");
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

  /** The first NOT MATCHED clause that applies to the row, or null. */
  BoundClause insertClause(RowView source) {
    for (BoundClause clause : notMatched) {
      if (clause.clause.condition().test(source, SchemaRowView.NO_TARGET)) {
        return clause;
      }
    }
    return null;
  }

  /**
   * The decision of the MATCHED clauses for a matched row, as far as the source row alone tells:
   * {@link Decision#UNDECIDED} when a clause that needs the target row's values comes before it
   * is decided.
   */
  Decision matchedWithoutTarget(RowView source) {
    for (BoundClause clause : matched) {
      if (!clause.clause.condition().targetColumns().isEmpty()) {
        return Decision.UNDECIDED;
      }
      if (clause.clause.condition().test(source, SchemaRowView.NO_TARGET)) {
        return clause.clause.targetColumns().isEmpty() ? clause.decision : Decision.UNDECIDED;
      }
    }
    return Decision.NONE;
  }

  /** The decision of the MATCHED clauses for a matched row whose target columns {@code target} holds. */
  Decision matched(RowView source, RowView target) {
    for (BoundClause clause : matched) {
      if (clause.clause.condition().test(source, target)) {
        return clause.decision;
      }
    }
    return Decision.NONE;
  }

  /**
   * Whether an UPDATE by {@code update} writes the very row an INSERT by {@code insert} would,
   * whatever the source row: both copy every non-key column from the same source columns.
   */
  static boolean sameRow(Decision update, BoundClause insert) {
    return update.kind() == Decision.Kind.UPDATE && update.clause().copiesWholeRow && insert.copiesWholeRow
        && Arrays.equals(update.clause().copiedFrom, insert.copiedFrom);
  }

  /** The row an INSERT or UPDATE clause writes: the source's key, the assigned values, null (INSERT) or unchanged (UPDATE) elsewhere. */
  Row row(BoundClause clause, RowView source, RowView target, Row sourceRow) {
    if (clause.copiesSourceAsIs) {
      return sourceRow;
    }
    Object[] values = new Object[tableSchema.size()];
    if (clause.clause instanceof MergeClause.Update) {
      Arrays.fill(values, Unchanged.VALUE);
    }
    for (int i = 0; i < tableKeyOrdinals.length; i++) {
      values[tableKeyOrdinals[i]] = sourceRow.get(sourceKeyOrdinals[i]);
    }
    for (int i = 0; i < clause.assignments.size(); i++) {
      int from = clause.sourceOrdinals[i];
      values[clause.tableOrdinals[i]] = from >= 0 ? sourceRow.get(from) : clause.assignments.get(i).value(source, target);
    }
    return Row.of(values);
  }

  private static void checkAssignments(String tableRoot, StructType sourceSchema, StructType tableSchema, List<Assignment> assignments,
      String clause) {
    checkColumns(tableRoot, tableSchema, assignments.stream().map(Assignment::column).toList(), "assigned by " + clause
        + " are not columns of the table");
    checkColumns(tableRoot, sourceSchema, assignments.stream().map(Assignment::sourceColumn).filter(c -> c != null).toList(),
        "copied by " + clause + " are not columns of the source");
  }

  private static void checkColumns(String tableRoot, StructType schema, List<String> columns, String problem) {
    Set<String> missing = new LinkedHashSet<>();
    for (String column : columns) {
      if (schema.indexOf(column) < 0) {
        missing.add(column);
      }
    }
    if (!missing.isEmpty()) {
      throw new InvalidMergeException(tableRoot, "columns " + missing + " " + problem + " " + schema.fieldNames());
    }
  }

  /** A clause with its assignments resolved to positions. */
  final class BoundClause {
    private final MergeClause clause;
    private final List<Assignment> assignments;
    private final int[] tableOrdinals;
    /** Per assignment, the source position it copies, or -1 for a computed value. */
    private final int[] sourceOrdinals;
    /** Per table column, the source position an assignment copies into it, or -1. */
    private final int[] copiedFrom;
    /** Whether every non-key column is copied from the source. */
    private final boolean copiesWholeRow;
    /** Whether the clause's row is the source row itself: it copies every column from the same position (rows are immutable). */
    private final boolean copiesSourceAsIs;
    private final Decision decision;

    private BoundClause(MergeClause clause, List<Assignment> assignments) {
      this.clause = clause;
      this.assignments = assignments == null ? List.of() : assignments;
      this.tableOrdinals = new int[this.assignments.size()];
      this.sourceOrdinals = new int[this.assignments.size()];
      this.copiedFrom = new int[tableSchema.size()];
      Arrays.fill(copiedFrom, -1);
      int copied = 0;
      for (int i = 0; i < this.assignments.size(); i++) {
        Assignment assignment = this.assignments.get(i);
        tableOrdinals[i] = tableSchema.indexOf(assignment.column());
        sourceOrdinals[i] = assignment.sourceColumn() == null ? -1 : spec.sourceSchema().indexOf(assignment.sourceColumn());
        if (sourceOrdinals[i] >= 0) {
          copiedFrom[tableOrdinals[i]] = sourceOrdinals[i];
          copied++;
        }
      }
      this.copiesWholeRow = copied == tableSchema.size() - tableKeyOrdinals.length;
      boolean asIs = copiesWholeRow && spec.sourceSchema().size() == tableSchema.size() && Arrays.equals(sourceKeyOrdinals, tableKeyOrdinals);
      for (int t = 0; asIs && t < copiedFrom.length; t++) {
        asIs = copiedFrom[t] == t || copiedFrom[t] == -1;
      }
      this.copiesSourceAsIs = asIs;
      this.decision = clause instanceof MergeClause.Delete ? Decision.DELETE
          : clause instanceof MergeClause.Update ? new Decision(Decision.Kind.UPDATE, this) : null;
    }
  }

  /** What the MATCHED clauses do with one matched row; an UPDATE names its clause. */
  record Decision(Kind kind, BoundClause clause) {
    static final Decision UNDECIDED = new Decision(Kind.UNDECIDED, null);
    static final Decision NONE = new Decision(Kind.NONE, null);
    static final Decision DELETE = new Decision(Kind.DELETE, null);

    enum Kind { UNDECIDED, NONE, DELETE, UPDATE }
  }
}
