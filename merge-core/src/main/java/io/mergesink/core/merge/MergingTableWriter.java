package io.mergesink.core.merge;

import io.mergesink.core.commit.CommitConflictException;
import io.mergesink.core.commit.CommitOutcome;
import io.mergesink.core.commit.Committer;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.data.Row;
import io.mergesink.core.generated.GeneratedColumns;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.log.CheckpointWriter;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link TableWriter}: validate → plan with the strategy's {@link MergeOperation} → commit
 * with optimistic concurrency → on success update the key index and maybe checkpoint; when a
 * concurrent commit invalidated the plan, bring the index in step with the new snapshot and plan
 * again.
 */
public final class MergingTableWriter implements TableWriter {
  private static final Logger LOG = LoggerFactory.getLogger(MergingTableWriter.class);
  private static final int MAX_REPLANS = 20;
  private static final String TXN_ONLY_OPERATION = "SET TRANSACTION";

  private final Storage storage;
  private final SnapshotLoader loader;
  private final Committer committer;
  private final WriterOptions options;
  private final int[] keyOrdinals;
  private final LiveRowIndex index;
  private final MergeOperation operation;
  private final MergeOperation truncation;
  private final Map<String, Long> knownTxns;
  private Snapshot snapshot;
  private boolean snapshotStale;
  private long lastCheckpointVersion;
  private boolean checkpointsSkipped;

  private MergingTableWriter(Storage storage, SnapshotLoader loader, Snapshot snapshot, int[] keyOrdinals, WriterOptions options,
      LiveRowIndex index, NewFiles newFiles, MergeOperation operation) {
    this.storage = storage;
    this.loader = loader;
    this.committer = new Committer(storage, loader, options.maxCommitAttempts(), options.commitHook());
    this.options = options;
    this.keyOrdinals = keyOrdinals;
    this.index = index;
    this.operation = operation;
    this.truncation = new TruncateMerge(newFiles);
    this.snapshot = snapshot;
    this.knownTxns = new HashMap<>(snapshot.txnVersions());
    this.lastCheckpointVersion = snapshot.lastCheckpointVersion().orElse(0);
  }

  /**
   * Opens a writer on {@code snapshot}, indexing the keys of every live file in scope (for the
   * upsert strategies). The writer owns, from now on, the txn versions it sees in {@code snapshot}.
   *
   * @param keyOrdinals positions of the primary key columns in the table schema; empty for append
   */
  public static MergingTableWriter open(Storage storage, SnapshotLoader loader, Snapshot snapshot, int[] keyOrdinals,
      WriterOptions options) throws IOException {
    NewFiles newFiles = new NewFiles(storage, snapshot.tableRoot(), options.parquet(), options.targetFileSizeBytes(), options.owners());
    if (options.strategy() == MergeStrategy.APPEND) {
      return new MergingTableWriter(storage, loader, snapshot, new int[0], options, null, newFiles, new AppendMerge(newFiles));
    }
    LiveRowIndex index = new LiveRowIndex(storage, snapshot.tableRoot(), KeyedChanges.keySchema(snapshot.schema(), keyOrdinals).fieldNames(),
        options.scope());
    index.sync(snapshot);
    MergeOperation operation = options.strategy() == MergeStrategy.DELETION_VECTORS
        ? new DeletionVectorMerge(storage, index, newFiles)
        : new CopyOnWriteMerge(storage, index, newFiles, keyOrdinals);
    return new MergingTableWriter(storage, loader, snapshot, keyOrdinals.clone(), options, index, newFiles, operation);
  }

  @Override
  public CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    long start = System.nanoTime();
    refreshIfStale();
    for (int replans = 0; replans <= MAX_REPLANS; replans++) {
      // a concurrent schema change may have come between the change set and this plan
      ChangeSet fitted = withGeneratedValues(ChangeSetRealignment.to(snapshot.tableRoot(), snapshot.schema(), changes));
      KeyedChanges keyed = index == null
          ? KeyedChanges.forAppend(snapshot.tableRoot(), snapshot.schema(), fitted)
          : KeyedChanges.of(snapshot.tableRoot(), snapshot.schema(), keyOrdinals, fitted);
      checkTxns(changes.txnVersions());
      PlannedMerge planned;
      if (changes.truncate() && snapshot.metadata().appendOnly()) {
        throw new InvalidChangeSetException(snapshot.tableRoot(), "a truncate of an append-only table (delta.appendOnly=true), whose"
            + " commits must not remove data");
      }
      if (changes.truncate()) {
        planned = truncation.plan(snapshot, keyed, changes.txnVersions());
      } else if (changes.hasRowChanges()) {
        planned = operation.plan(snapshot, keyed, changes.txnVersions());
      } else {
        planned = txnOnly(changes.txnVersions());
      }
      CommitOutcome outcome = publish(planned.commit(), changes.txnVersions().keySet());
      if (outcome instanceof CommitOutcome.Committed committed) {
        knownTxns.putAll(changes.txnVersions());
        boolean checkpointed = afterCommit(committed, planned);
        return new CommitResult(committed.version(), planned.counts(), committed.attempts(), replans, System.nanoTime() - start,
            checkpointed);
      }
      CommitOutcome.Replan replan = (CommitOutcome.Replan) outcome;
      LOG.info("Table {}: planning again, {}", snapshot.tableRoot(), replan.reason());
      snapshot = replan.latest();
      if (index != null) {
        index.sync(snapshot);
      }
    }
    throw new CommitConflictException(snapshot.tableRoot(), MAX_REPLANS, snapshot.version() + 1);
  }

  @Override
  public Snapshot snapshot() {
    return snapshot;
  }

  @Override
  public Snapshot refresh() throws IOException {
    snapshot = loader.update(snapshot);
    if (index != null) {
      index.sync(snapshot);
    }
    snapshotStale = false;
    return snapshot;
  }

  /**
   * A read-only view of the live rows by key as of {@link #snapshot()}, valid until the next commit
   * or refresh; for engines that decide per row before they commit (the MERGE engine).
   *
   * @throws IllegalStateException for an append writer, which keeps no key index
   */
  public LiveRows liveRows() {
    if (index == null) {
      throw new IllegalStateException("table " + snapshot.tableRoot() + ": an append writer has no live rows by key");
    }
    return new LiveRows(storage, snapshot, index);
  }

  /** Keys held by the index (0 for append writers). */
  public long indexedKeys() {
    return index == null ? 0 : index.size();
  }

  /** The key index's estimate of its own heap footprint in bytes (0 for append writers); read-only, for benchmarks and metrics. */
  public long indexEstimatedHeapBytes() {
    return index == null ? 0 : index.estimatedHeapBytes();
  }

  /**
   * Publishes a plan. The written files are deleted only when the commit certainly did not
   * happen (fenced, conflict, re-plan); after an I/O error the outcome is unknown, and deleting
   * files a published commit references would corrupt the table, so they are left for vacuum.
   */
  private CommitOutcome publish(StagedCommit staged, Set<String> ownAppIds) throws IOException, FencedException {
    CommitOutcome outcome;
    try {
      outcome = committer.commit(snapshot, staged, ownAppIds);
    } catch (FencedException | CommitConflictException e) {
      Cleanup.deleteQuietly(storage, staged.writtenFiles());
      throw e;
    }
    if (outcome instanceof CommitOutcome.Replan) {
      Cleanup.deleteQuietly(storage, staged.writtenFiles());
    }
    return outcome;
  }

  /**
   * Brings index and snapshot up to date after a published commit. Never throws: the commit
   * happened, and reporting a failure would make the caller apply the same changes again. A
   * failed refresh is retried before the next commit.
   */
  private boolean afterCommit(CommitOutcome.Committed committed, PlannedMerge planned) {
    if (index != null) {
      index.apply(planned.indexDelta());
    }
    try {
      if (committed.version() == snapshot.version() + 1) {
        // no other commit came between: the next snapshot is known without reading the log
        snapshot = snapshot.withCommit(committed.version(), committed.actions());
      } else {
        snapshot = loader.update(snapshot);
        if (index != null) {
          index.sync(snapshot);
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Table {}: committed, but could not read the table back; will retry before the next commit", snapshot.tableRoot(), e);
      snapshotStale = true;
      return false;
    }
    return maybeCheckpoint();
  }

  private void refreshIfStale() throws IOException {
    if (snapshotStale) {
      refresh();
    }
  }

  private boolean maybeCheckpoint() {
    long interval = options.checkpointInterval();
    if (snapshot.version() / interval <= lastCheckpointVersion / interval) {
      return false;
    }
    if (CheckpointWriter.whyNot(snapshot.metadata()).isPresent()) {
      if (!checkpointsSkipped) {
        LOG.info("Table {}: writing no checkpoints: {}", snapshot.tableRoot(), CheckpointWriter.whyNot(snapshot.metadata()).get());
        checkpointsSkipped = true;
      }
      return false;
    }
    try {
      CheckpointWriter.write(storage, snapshot.tableRoot(), snapshot);
      lastCheckpointVersion = snapshot.version();
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Table {}: checkpoint at version {} failed; the table stays readable from its log", snapshot.tableRoot(),
          snapshot.version(), e);
      return false;
    }
  }

  /** Refuses txn versions another writer moved since this writer last saw them, and versions going backwards. */
  private void checkTxns(Map<String, Long> txns) throws FencedException {
    for (Map.Entry<String, Long> txn : txns.entrySet()) {
      Long current = snapshot.txnVersions().get(txn.getKey());
      if (!Objects.equals(current, knownTxns.get(txn.getKey()))) {
        throw new FencedException(snapshot.tableRoot(), txn.getKey(), snapshot.version(),
            "txn version " + current + ", this writer last saw " + knownTxns.get(txn.getKey()));
      }
      if (current != null && txn.getValue() < current) {
        throw new InvalidChangeSetException(snapshot.tableRoot(),
            "txn " + txn.getKey() + " would move back from " + current + " to " + txn.getValue());
      }
    }
  }

  /** {@code changes} with the generated columns of the snapshot's schema computed (docs/design.md, "Generated columns"). */
  private ChangeSet withGeneratedValues(ChangeSet changes) {
    GeneratedColumns generated = GeneratedColumns.of(snapshot.schema());
    if (generated.isEmpty() || changes.upserts().isEmpty()) {
      return changes;
    }
    List<Row> filled = new ArrayList<>(changes.upserts().size());
    for (Row row : changes.upserts()) {
      try {
        filled.add(generated.fill(row));
      } catch (IllegalArgumentException e) {
        throw new InvalidChangeSetException(snapshot.tableRoot(), "upsert " + row + ": " + e.getMessage());
      }
    }
    return changes.withUpserts(filled, changes.rowSchema().orElse(snapshot.schema()));
  }

  private static PlannedMerge txnOnly(Map<String, Long> txns) {
    StagedCommit commit = new StagedCommit(TouchedFiles.txnActions(txns, System.currentTimeMillis()), Set.of(), List.of(),
        TXN_ONLY_OPERATION, MergeCounts.NONE.asOperationMetrics());
    return new PlannedMerge(commit, new IndexDelta(), MergeCounts.NONE);
  }
}
