package io.mergesink.core.mergeinto;

import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * The {@code AND cond} of a WHEN clause: a test of the source row and, in a MATCHED clause, of
 * the target row. It declares the target columns it reads; the engine reads target rows only for
 * those (none declared: no target row is read for it). Immutable.
 */
public final class Condition {
  private static final Condition ALWAYS = new Condition(List.of(), (source, target) -> true);
  private final List<String> targetColumns;
  private final BiPredicate<RowView, RowView> test;

  private Condition(List<String> targetColumns, BiPredicate<RowView, RowView> test) {
    this.targetColumns = List.copyOf(targetColumns);
    this.test = Objects.requireNonNull(test, "test");
  }

  /** No condition: the clause applies to every row of its kind. */
  public static Condition always() {
    return ALWAYS;
  }

  /** A test of the source row only. */
  public static Condition onSource(Predicate<RowView> test) {
    Objects.requireNonNull(test, "test");
    return new Condition(List.of(), (source, target) -> test.test(source));
  }

  /**
   * A test of the source and the target row ({@code test(source, target)}), reading the target
   * columns named; for MATCHED clauses only.
   *
   * @throws IllegalArgumentException when no target column is named
   */
  public static Condition withTarget(List<String> targetColumns, BiPredicate<RowView, RowView> test) {
    if (targetColumns.isEmpty()) {
      throw new IllegalArgumentException("a condition on the target row names the target columns it reads; use onSource otherwise");
    }
    return new Condition(targetColumns, test);
  }

  /** The target columns the test reads; empty when it reads only the source row. */
  public List<String> targetColumns() {
    return targetColumns;
  }

  boolean test(RowView source, RowView target) {
    return test.test(source, target);
  }
}
