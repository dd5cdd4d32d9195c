package io.mergesink.core.index;

import java.util.Map;
import java.util.Optional;

/**
 * Where a table that keeps several versions of a key (a history table, docs/design.md "History
 * tables") says which of them is current: the Delta {@code configuration} entry {@value #PROPERTY}
 * names a BOOLEAN column, and only the rows where it is true are live to the key index. The other
 * rows are history: nothing finds them by key, so no change replaces or deletes them, and the
 * invariant "at most one live row per key" holds for the current rows.
 */
public final class CurrentRowColumn {
  public static final String PROPERTY = "mergesink.currentRowColumn";

  private CurrentRowColumn() {}

  /** The current-row column a table's {@code configuration} names, if any. */
  public static Optional<String> of(Map<String, String> configuration) {
    String value = configuration.get(PROPERTY);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  /** The property that records {@code column} as the current-row column. */
  public static Map<String, String> toProperty(String column) {
    return Map.of(PROPERTY, column);
  }

  /** Whether a row whose current-row column holds {@code value} is live to the index: anything but {@code false}. */
  public static boolean isCurrent(Object value) {
    return !Boolean.FALSE.equals(value);
  }
}
