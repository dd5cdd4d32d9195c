package io.mergesink.core.mergeinto;

import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One {@code column = value} of an UPDATE SET or INSERT: the value a function of the source row
 * and, in an UPDATE, of the target row, whose columns it declares. Immutable.
 */
public final class Assignment {
  private final String column;
  private final List<String> targetColumns;
  private final BiFunction<RowView, RowView, Object> value;
  /** The source column a {@link #fromSource} copies, so the engine can copy it by position; null for computed values. */
  private final String sourceColumn;

  private Assignment(String column, List<String> targetColumns, BiFunction<RowView, RowView, Object> value, String sourceColumn) {
    this.column = Objects.requireNonNull(column, "column");
    this.targetColumns = List.copyOf(targetColumns);
    this.value = Objects.requireNonNull(value, "value");
    this.sourceColumn = sourceColumn;
  }

  /** {@code column = source.column}. */
  public static Assignment fromSource(String column) {
    return fromSource(column, column);
  }

  /** {@code column = source.sourceColumn}. */
  public static Assignment fromSource(String column, String sourceColumn) {
    Objects.requireNonNull(sourceColumn, "sourceColumn");
    return new Assignment(column, List.of(), (source, target) -> source.get(sourceColumn), sourceColumn);
  }

  /** {@code column = value(source)}. */
  public static Assignment computed(String column, Function<RowView, Object> value) {
    Objects.requireNonNull(value, "value");
    return new Assignment(column, List.of(), (source, target) -> value.apply(source), null);
  }

  /**
   * {@code column = value(source, target)}, reading the target columns named; for UPDATE only.
   *
   * @throws IllegalArgumentException when no target column is named
   */
  public static Assignment withTarget(String column, List<String> targetColumns, BiFunction<RowView, RowView, Object> value) {
    if (targetColumns.isEmpty()) {
      throw new IllegalArgumentException("assignment of '" + column + "': a value of the target row names the target columns it"
          + " reads; use computed otherwise");
    }
    return new Assignment(column, targetColumns, value, null);
  }

  /** The table column assigned. */
  public String column() {
    return column;
  }

  /** The target columns the value reads; empty when it reads only the source row. */
  public List<String> targetColumns() {
    return targetColumns;
  }

  /** The source column this assignment copies, or null when its value is computed. */
  String sourceColumn() {
    return sourceColumn;
  }

  Object value(RowView source, RowView target) {
    return value.apply(source, target);
  }

  @Override
  public String toString() {
    if (sourceColumn != null) {
      return column + " = source." + sourceColumn;
    }
    return column + " = " + (targetColumns.isEmpty() ? "f(source)" : "f(source, target" + targetColumns + ")");
  }
}
