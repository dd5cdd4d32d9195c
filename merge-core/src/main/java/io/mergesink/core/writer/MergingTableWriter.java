package io.mergesink.core.writer;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.datafiles.NewFiles;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.merge.ChangeFeed;
import io.mergesink.core.merge.CopyOnWriteMerge;
import io.mergesink.core.merge.DeletionVectorMerge;
import io.mergesink.core.merge.LookedUpKeys;
import io.mergesink.core.merge.MergeCounts;
import io.mergesink.core.merge.MergeOperation;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.merge.PlannedMerge;
import io.mergesink.core.merge.TruncateMerge;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The {@link TableWriter} of tables with a primary key (deletion vectors or copy-on-write):
 * validate → plan with the strategy's {@link MergeOperation} against the key index → commit with
 * optimistic concurrency ({@link TableCommits}) → on success update the key index; when a concurrent
 * commit invalidated the plan, bring the index in step with the new snapshot and plan again.
 */
public final class MergingTableWriter implements TableWriter, TableCommits.Plans {
  private static final String TXN_ONLY_OPERATION = "SET TRANSACTION";

  private final Storage storage;
  private final int[] keyOrdinals;
  private final LiveRowIndex index;
  private final MergeOperation operation;
  private final MergeOperation truncation;
  private final TableCommits commits;

  private MergingTableWriter(Storage storage, SnapshotLoader loader, Snapshot snapshot, int[] keyOrdinals, WriterOptions options,
      LiveRowIndex index, MergeOperation operation, MergeOperation truncation) {
    this.storage = storage;
    this.keyOrdinals = keyOrdinals;
    this.index = index;
    this.operation = operation;
    this.truncation = truncation;
    this.commits = new TableCommits(storage, loader, snapshot, options);
  }

  /**
   * Opens a writer on {@code snapshot}, indexing the keys of every live file in scope.
   *
   * @param keyOrdinals positions of the primary key columns in the table schema
   * @throws IllegalArgumentException no key columns ({@link AppendTableWriter} writes tables without key)
   */
  public static MergingTableWriter open(Storage storage, SnapshotLoader loader, Snapshot snapshot, int[] keyOrdinals,
      WriterOptions options) throws IOException {
    if (keyOrdinals.length == 0) {
      throw new IllegalArgumentException("table " + snapshot.tableRoot() + ": a merging writer needs key columns, found none");
    }
    NewFiles newFiles = new NewFiles(storage, snapshot.tableRoot(), options.parquet(), options.targetFileSizeBytes());
    StructType keySchema = KeyedChanges.keySchema(snapshot.schema(), keyOrdinals);
    LiveRowIndex index = new LiveRowIndex(storage, snapshot.tableRoot(), keySchema.fieldNames(), options.scope());
    index.sync(snapshot);
    ChangeFeed changeFeed = new ChangeFeed(newFiles, keyOrdinals, keySchema);
    MergeOperation operation = options.strategy() == MergeStrategy.DELETION_VECTORS
        ? new DeletionVectorMerge(storage, index, newFiles, changeFeed)
        : new CopyOnWriteMerge(storage, index, newFiles, keyOrdinals, changeFeed);
    return new MergingTableWriter(storage, loader, snapshot, keyOrdinals.clone(), options, index, operation,
        new TruncateMerge(newFiles, changeFeed));
  }

  @Override
  public CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    return commits.commit(changes, this);
  }

  @Override
  public Snapshot snapshot() {
    return commits.snapshot();
  }

  @Override
  public Snapshot refresh() throws IOException {
    return commits.refresh(this);
  }

  /**
   * A read-only view of the live rows by key as of {@link #snapshot()}, valid until the next commit
   * or refresh; for engines that decide per row before they commit (the MERGE engine).
   */
  public DeltaLiveRows liveRows() {
    return new DeltaLiveRows(storage, snapshot(), index);
  }

  /** Keys held by the index. */
  public long indexedKeys() {
    return index.size();
  }

  /** The key index's estimate of its own heap footprint in bytes; read-only, for benchmarks and metrics. */
  public long indexEstimatedHeapBytes() {
    return index.estimatedHeapBytes();
  }

  /**
   * A change set decided from live rows ({@link ChangeSet#decidedFrom()}) is planned only while
   * they are where they were, and its commit depends on every row of the scope: a concurrent
   * commit that adds or changes data there makes the committer plan again, and this check decide
   * whether the change set itself must be decided again (docs/design.md, "History tables").
   */
  @Override
  public PlannedMerge plan(Snapshot snapshot, ChangeSet changes) throws IOException {
    KeyedChanges keyed = KeyedChanges.of(snapshot.tableRoot(), snapshot.schema(), keyOrdinals,
        CurrentRowColumn.of(snapshot.metadata().configuration()), changes);
    if (changes.truncate()) {
      return truncation.plan(snapshot, keyed);
    }
    if (changes.decidedFrom().isEmpty()) {
      return planRows(snapshot, keyed, changes);
    }
    // even a change set that changes no row was decided from what it read (a delete of a key that had no current row)
    changes.decidedFrom().get().check(snapshot, index);
    PlannedMerge planned = planRows(snapshot, keyed, changes);
    return new PlannedMerge(planned.commit().readingWholeScope(index.scope(snapshot)), planned.indexDelta(), planned.counts());
  }

  /**
   * Upserts and deletes are planned from the keys the index holds: a key found in no file of the
   * scope is inserted, or its delete changes nothing. Their commit depends on that, so a concurrent
   * commit adding a row of one of those keys in scope makes the committer plan again
   * (docs/design.md, "Concurrency").
   */
  private PlannedMerge planRows(Snapshot snapshot, KeyedChanges keyed, ChangeSet changes) throws IOException {
    if (changes.hasRowChanges()) {
      PlannedMerge planned = operation.plan(snapshot, keyed);
      if (changes.upserts().isEmpty() && changes.deletes().isEmpty()) {
        return planned;
      }
      return new PlannedMerge(planned.commit().readingKeysOfScope(index.scope(snapshot), new LookedUpKeys(index, keyed)), planned.indexDelta(), planned.counts());
    }
    // txns only: nothing written, nothing read; the committer adds the txns
    StagedCommit commit = new StagedCommit(List.of(), Set.of(), List.of(), TXN_ONLY_OPERATION, MergeCounts.NONE.asOperationMetrics());
    return new PlannedMerge(commit, new IndexDelta(), MergeCounts.NONE);
  }

  @Override
  public void moved(Snapshot snapshot) throws IOException {
    index.sync(snapshot);
  }

  @Override
  public void landed(PlannedMerge planned) {
    index.apply(planned.indexDelta());
  }
}
