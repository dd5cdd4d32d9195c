package io.mergesink.core.merge;

import io.mergesink.core.commit.FencedException;
import io.mergesink.core.snapshot.Snapshot;
import java.io.IOException;

/**
 * Commits change sets to one table, keeping the key index of its live rows between commits.
 * Single-threaded: one writer per table per task.
 *
 * <p>The writer owns the txn app ids it commits. It remembers the version of each that it saw or
 * wrote; if the table shows another version when it commits, another writer took the app id over
 * and the commit is refused with {@link FencedException}.
 */
public interface TableWriter {

  /**
   * Applies {@code changes} and records their txn versions in one atomic commit.
   *
   * @throws InvalidChangeSetException a row does not fit, a key repeats;
   *     nothing was written
   * @throws FencedException another writer moved one of the change set's txn app ids; nothing was committed
   * @throws io.mergesink.core.commit.CommitConflictException concurrent commits kept winning; nothing was committed
   * @throws IOException storage failed; nothing was committed, files already written are orphans for vacuum
   */
  CommitResult commit(ChangeSet changes) throws IOException, FencedException;

  /** The latest snapshot this writer knows: the one after its last commit or refresh. */
  Snapshot snapshot();

  /**
   * Reads what other writers committed since {@link #snapshot()} (e.g. a schema change) and brings
   * the key index in step. Txn versions other writers moved are not adopted: a later commit of
   * such an app id is still fenced.
   */
  Snapshot refresh() throws IOException;
}
