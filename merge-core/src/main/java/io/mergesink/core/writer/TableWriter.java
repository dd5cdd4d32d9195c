package io.mergesink.core.writer;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.snapshot.Snapshot;
import java.io.IOException;

/**
 * Commits change sets to one table, keeping the key index of its live rows between commits.
 * Single-threaded: one writer per table per task.
 *
 * <p>A change set's txns are compare-and-sets ({@link io.mergesink.core.commit.TxnChange}): when the
 * table holds another version of one of them than the change set expects, another writer took the
 * app id over and the commit is refused with {@link FencedException}. The writer keeps no txn state
 * of its own; the caller says what it expects.
 */
public interface TableWriter {

  /**
   * Applies {@code changes} and records their txn versions in one atomic commit.
   *
   * @throws InvalidChangeSetException a row does not fit, a key repeats;
   *     nothing was written
   * @throws FencedException a txn app id of the change set does not hold the version it expects; nothing was committed
   * @throws io.mergesink.core.commit.CommitConflictException concurrent commits kept winning; nothing was committed
   * @throws IOException storage failed; nothing was committed, files already written are orphans for vacuum
   */
  CommitResult commit(ChangeSet changes) throws IOException, FencedException;

  /** The latest snapshot this writer knows: the one after its last commit or refresh. */
  Snapshot snapshot();

  /**
   * Reads what other writers committed since {@link #snapshot()} (e.g. a schema change, a
   * compaction) and brings the key index in step.
   */
  Snapshot refresh() throws IOException;
}
