package io.mergesink.core.merge;

import java.io.IOException;

/**
 * A change set removes a row by position ({@link ChangeSet#removals()}) that is no longer there:
 * a concurrent commit (a compaction, another writer) rewrote or removed its file, or deleted the
 * row, after the change set was decided. Nothing was written; the writer holds the table as it is
 * now, so deciding the change set again against it and committing that succeeds.
 */
public final class MovedRowsException extends IOException {
  public MovedRowsException(String tableRoot, RowPosition position, String why) {
    super("table " + tableRoot + ": the change set removes the row at " + position + ", but " + why
        + " since it was decided (decide it again against the table as it is now)");
  }
}
