package io.mergesink.core.changes;

import java.io.IOException;

/**
 * The rows a change set was decided from are no longer there: it removes a row by position
 * ({@link ChangeSet#removals()}) whose file a concurrent commit (a compaction, another writer)
 * rewrote or removed, or whose row it deleted; or a concurrent commit changed the live rows it
 * was decided from ({@link ChangeSet#decidedFrom()}). Nothing was written; the writer holds the
 * table as it is now, so deciding the change set again against it and committing that succeeds
 * unless yet another commit comes between.
 */
public final class MovedRowsException extends IOException {
  public MovedRowsException(String tableRoot, RowPosition position, String why) {
    this(tableRoot, "the change set removes the row at " + position + ", but " + why + " since it was decided");
  }

  public MovedRowsException(String tableRoot, String what) {
    super("table " + tableRoot + ": " + what + " (decide it again against the table as it is now)");
  }
}
