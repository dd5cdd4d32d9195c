package io.mergesink.core.mergeinto;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One WHEN clause of a merge. Clauses of a kind are tried in their order; the first whose
 * condition holds decides the row (SQL MERGE). Build them with {@link MergeSpec.Builder}.
 */
public sealed interface MergeClause {

  /** The clause's {@code AND cond} ({@link Condition#always()} when it has none). */
  Condition condition();

  /** The target columns the clause reads, in its condition or its values. */
  List<String> targetColumns();

  /**
   * {@code WHEN MATCHED [AND cond] THEN UPDATE SET ...}: the assigned columns change, every other
   * column keeps the target row's value.
   */
  record Update(Condition condition, List<Assignment> assignments) implements MergeClause {
    public Update {
      Objects.requireNonNull(condition, "condition");
      assignments = List.copyOf(assignments);
      if (assignments.isEmpty()) {
        throw new IllegalArgumentException("UPDATE SET needs at least one assignment");
      }
      checkDistinct("UPDATE SET", assignments);
    }

    @Override
    public List<String> targetColumns() {
      return union(condition, assignments);
    }
  }

  /** {@code WHEN MATCHED [AND cond] THEN DELETE}. */
  record Delete(Condition condition) implements MergeClause {
    public Delete {
      Objects.requireNonNull(condition, "condition");
    }

    @Override
    public List<String> targetColumns() {
      return condition.targetColumns();
    }
  }

  /**
   * {@code WHEN NOT MATCHED [AND cond] THEN INSERT ...}: the key columns take the source row's key,
   * the assigned columns their values, every other column null. Reads no target row.
   */
  record Insert(Condition condition, List<Assignment> assignments) implements MergeClause {
    public Insert {
      Objects.requireNonNull(condition, "condition");
      assignments = List.copyOf(assignments);
      if (!condition.targetColumns().isEmpty()) {
        throw new IllegalArgumentException("a WHEN NOT MATCHED condition reads target columns " + condition.targetColumns()
            + ", but a source row that matched nothing has no target row");
      }
      for (Assignment assignment : assignments) {
        if (!assignment.targetColumns().isEmpty()) {
          throw new IllegalArgumentException("INSERT value " + assignment + " reads the target row, which a source row that"
              + " matched nothing does not have");
        }
      }
      checkDistinct("INSERT", assignments);
    }

    @Override
    public List<String> targetColumns() {
      return List.of();
    }
  }

  private static void checkDistinct(String clause, List<Assignment> assignments) {
    Set<String> columns = new LinkedHashSet<>();
    for (Assignment assignment : assignments) {
      if (!columns.add(assignment.column())) {
        throw new IllegalArgumentException(clause + " assigns column '" + assignment.column() + "' twice");
      }
    }
  }

  private static List<String> union(Condition condition, List<Assignment> assignments) {
    Set<String> columns = new LinkedHashSet<>(condition.targetColumns());
    assignments.forEach(assignment -> columns.addAll(assignment.targetColumns()));
    return new ArrayList<>(columns);
  }
}
