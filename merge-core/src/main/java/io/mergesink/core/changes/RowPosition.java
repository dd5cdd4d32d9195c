package io.mergesink.core.changes;

import java.util.Objects;

/**
 * Where a row is stored: a live file of the table (its path as the log's {@code add} names it) and
 * the row's physical index in it, deleted rows counted, as deletion vectors count them.
 */
public record RowPosition(String path, long rowIndex) {
  public RowPosition {
    Objects.requireNonNull(path, "path");
    if (rowIndex < 0) {
      throw new IllegalArgumentException("row index " + rowIndex + " of " + path);
    }
  }
}
