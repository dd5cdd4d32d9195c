package io.mergesink.core.writer;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.ChangeSetRealignment;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.commit.CommitConflictException;
import io.mergesink.core.commit.Committer;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.Transaction;
import io.mergesink.core.data.Row;
import io.mergesink.core.generatedcolumns.GeneratedColumns;
import io.mergesink.core.log.CheckpointWriter;
import io.mergesink.core.merge.PlannedMerge;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link TableWriter} does around its plans: fit the change set to the snapshot it plans
 * against, publish the plan in a {@link Transaction} (docs/design.md, "Concurrency"), which plans
 * again when a concurrent commit invalidated it, follow the table after each commit and write a
 * checkpoint every {@link WriterOptions#checkpointInterval()} commits. The writer supplies only its
 * {@link Plans}. Single-threaded, like its writer.
 */
final class TableCommits {
  private static final Logger LOG = LoggerFactory.getLogger(TableCommits.class);
  private static final int MAX_REPLANS = 20;

  private final Storage storage;
  private final SnapshotLoader loader;
  private final Committer committer;
  private final int checkpointInterval;
  private Snapshot snapshot;
  private boolean snapshotStale;
  private long lastCheckpointVersion;
  private boolean checkpointsSkipped;

  /** A writer's part of a commit. */
  interface Plans {
    /** Writes what {@code changes} (fitted to {@code snapshot}'s schema) need and stages their commit; publishes nothing. */
    PlannedMerge plan(Snapshot snapshot, ChangeSet changes) throws IOException;

    /** The table is at {@code snapshot} now, other writers' commits included: bring derived state (a key index) in step. */
    void moved(Snapshot snapshot) throws IOException;

    /** {@code planned} is committed. */
    void landed(PlannedMerge planned);
  }

  TableCommits(Storage storage, SnapshotLoader loader, Snapshot snapshot, WriterOptions options) {
    this.storage = storage;
    this.loader = loader;
    this.committer = new Committer(storage, loader, options.maxCommitAttempts(), options.commitHook());
    this.checkpointInterval = options.checkpointInterval();
    this.snapshot = snapshot;
    this.lastCheckpointVersion = snapshot.lastCheckpointVersion().orElse(0);
  }

  Snapshot snapshot() {
    return snapshot;
  }

  /** Reads what other writers committed since {@link #snapshot()}. */
  Snapshot refresh(Plans plans) throws IOException {
    snapshot = loader.update(snapshot);
    plans.moved(snapshot);
    snapshotStale = false;
    return snapshot;
  }

  /**
   * Plans, publishes and follows one commit of {@code changes} in a {@link Transaction}, planning
   * again (at most {@value #MAX_REPLANS} times) when concurrent commits invalidate the plan.
   *
   * @see TableWriter#commit
   */
  CommitResult commit(ChangeSet changes, Plans plans) throws IOException, FencedException {
    long start = System.nanoTime();
    if (snapshotStale) {
      refresh(plans);
    }
    Transaction.Outcome<PlannedMerge> outcome = new Transaction(storage, committer, MAX_REPLANS + 1).run(snapshot,
        new Transaction.Planner<>() {
          @Override
          public Optional<Transaction.Plan<PlannedMerge>> plan(Snapshot base) throws IOException {
            changes.checkDecidedUnder(base);
            changes.checkTags(base, version -> loader.readCommit(base.tableRoot(), version));
            // a concurrent schema change may have come between the change set and this plan
            ChangeSet fitted = withGeneratedValues(ChangeSetRealignment.to(base.tableRoot(), base.schema(), changes));
            PlannedMerge planned = plans.plan(base, fitted);
            return Optional.of(new Transaction.Plan<>(planned.commit(), changes.txns(), changes.commitTags(), changes::invalidatedBy,
                planned));
          }

          @Override
          public void invalidated(Snapshot latest, String reason) throws IOException {
            LOG.info("Table {}: planning again, {}", latest.tableRoot(), reason);
            snapshot = latest;
            // the winner may have made the table one MergeSink cannot write (a CHECK constraint added, a feature enabled)
            ProtocolSupport.checkWritable(latest.tableRoot(), latest.protocol(), latest.metadata());
            plans.moved(latest);
          }
        });
    if (outcome instanceof Transaction.Fenced<PlannedMerge> fenced) {
      throw fenced.exception();
    }
    if (outcome instanceof Transaction.GaveUp<PlannedMerge> gaveUp) {
      throw new CommitConflictException(gaveUp.latest().tableRoot(), MAX_REPLANS, gaveUp.latest().version() + 1);
    }
    Transaction.Committed<PlannedMerge> committed = (Transaction.Committed<PlannedMerge>) outcome;
    plans.landed(committed.value());
    boolean checkpointed = follow(committed, plans) && maybeCheckpoint();
    return new CommitResult(committed.version(), committed.value().counts(), committed.attempts(), committed.replans(),
        System.nanoTime() - start, checkpointed);
  }

  /**
   * Brings the snapshot up to date after a published commit; returns whether it is. Never throws:
   * the commit happened, and reporting a failure would make the caller apply the same changes
   * again. A failed refresh is retried before the next commit.
   */
  private boolean follow(Transaction.Committed<PlannedMerge> committed, Plans plans) {
    try {
      if (committed.version() == snapshot.version() + 1) {
        // no other commit came between: the next snapshot is known without reading the log
        snapshot = snapshot.withCommit(committed.version(), committed.actions());
      } else {
        snapshot = loader.update(snapshot);
        plans.moved(snapshot);
      }
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn("Table {}: committed, but could not read the table back; will retry before the next commit", snapshot.tableRoot(), e);
      snapshotStale = true;
      return false;
    }
  }

  private boolean maybeCheckpoint() {
    if (snapshot.version() / checkpointInterval <= lastCheckpointVersion / checkpointInterval) {
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

  /** {@code changes} with the generated columns of the snapshot's schema computed (docs/design.md, "Generated columns"). */
  private ChangeSet withGeneratedValues(ChangeSet changes) {
    GeneratedColumns generated = GeneratedColumns.of(snapshot.schema());
    if (generated.isEmpty() || (changes.upserts().isEmpty() && changes.appends().isEmpty())) {
      return changes;
    }
    return changes.withRows(filled(generated, changes.upserts(), "upsert"), filled(generated, changes.appends(), "append"),
        changes.rowSchema().orElse(snapshot.schema()));
  }

  private List<Row> filled(GeneratedColumns generated, List<Row> rows, String what) {
    List<Row> filled = new ArrayList<>(rows.size());
    for (Row row : rows) {
      try {
        filled.add(generated.fill(row));
      } catch (IllegalArgumentException e) {
        throw new InvalidChangeSetException(snapshot.tableRoot(), what + " " + row + ": " + e.getMessage());
      }
    }
    return filled;
  }
}
