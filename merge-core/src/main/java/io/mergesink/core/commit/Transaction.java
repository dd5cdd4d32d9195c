package io.mergesink.core.commit;

import io.mergesink.core.datafiles.Cleanup;
import io.mergesink.core.log.Action;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One optimistic transaction on a table (docs/design.md, "Concurrency"): plan against a snapshot,
 * stage the commit, publish it through the {@link Committer}; when a concurrent commit invalidated
 * the plan, plan again against the newer snapshot, at most {@code maxPlans} times in all. Every
 * commit of data, schema or compaction runs here, so this is the one re-plan loop and the one place
 * that deletes the files of an attempt that did not land.
 *
 * <p>The files an attempt wrote ({@link StagedCommit#writtenFiles()}) are deleted when its commit
 * certainly did not happen: a re-plan, a fenced commit, a commit that lost every version race
 * ({@link CommitConflictException}). After an I/O error the outcome is unknown, and deleting files
 * a published commit references would corrupt the table, so they are left for vacuum.
 *
 * <p>Single-threaded: one transaction runs at a time per committer.
 */
public final class Transaction {
  private final Storage storage;
  private final Committer committer;
  private final int maxPlans;

  /**
   * @param committer publishes each attempt (and retries it at later versions when concurrent
   *     commits leave the plan valid)
   * @param maxPlans how many plans a run makes before it gives up, the first included
   */
  public Transaction(Storage storage, Committer committer, int maxPlans) {
    if (maxPlans < 1) {
      throw new IllegalArgumentException("a transaction makes at least one plan, got maxPlans=" + maxPlans);
    }
    this.storage = storage;
    this.committer = committer;
    this.maxPlans = maxPlans;
  }

  /** The caller's part of a transaction: what to commit against a snapshot. */
  public interface Planner<T> {
    /**
     * Plans against {@code snapshot}: writes the files the commit needs and stages it; publishes
     * nothing. Empty when there is nothing to commit at {@code snapshot}, which ends the run.
     * Files of a plan that throws are the planner's to delete.
     */
    Optional<Plan<T>> plan(Snapshot snapshot) throws IOException;

    /**
     * A concurrent commit invalidated the last plan for {@code reason}: the table is at {@code latest},
     * which the next plan, if any, is made against. Throwing ends the run (the files of the
     * invalidated plan are deleted already).
     */
    default void invalidated(Snapshot latest, String reason) throws IOException {}
  }

  /**
   * A staged commit and what the caller keeps of its plan.
   *
   * @param txns per txn app id, the version the table must hold and the one the commit records
   *     (empty for commits that move no Kafka position, which are never fenced)
   * @param tags the {@code commitInfo.tags} of the entry
   * @param check what the planner knows beyond the staged commit about which concurrent commits invalidate it
   * @param value what the caller gets back with {@link Committed}
   */
  public record Plan<T>(StagedCommit staged, Map<String, TxnChange> txns, Map<String, String> tags, Committer.WinnerCheck check,
      T value) {
    public Plan {
      Objects.requireNonNull(staged, "staged");
      txns = Map.copyOf(txns);
      tags = Map.copyOf(tags);
      Objects.requireNonNull(check, "check");
    }

    /** A plan that moves no txn, tags nothing and knows nothing beyond {@code staged}. */
    public static <T> Plan<T> of(StagedCommit staged, T value) {
      return new Plan<>(staged, Map.of(), Map.of(), Committer.WinnerCheck.NONE, value);
    }
  }

  /** How a transaction ended, short of an exception. */
  public sealed interface Outcome<T> {}

  /** How a transaction that moves no txn ended: it is never fenced. */
  public sealed interface Unfenced<T> extends Outcome<T> {}

  /**
   * The plan made against {@code base} is version {@code version} of the table.
   *
   * @param attempts commit attempts of the last plan (versions tried)
   * @param replans plans made before the one that landed
   * @param actions the actions published (see {@link CommitOutcome.Committed#actions()})
   */
  public record Committed<T>(long version, Snapshot base, int attempts, int replans, List<Action> actions, T value) implements Unfenced<T> {
    public Committed {
      actions = List.copyOf(actions);
    }
  }

  /** The planner had nothing to commit at {@code snapshot}; nothing was published. */
  public record Unchanged<T>(Snapshot snapshot, int replans) implements Unfenced<T> {}

  /**
   * Concurrent commits invalidated {@code plans} plans in a row; nothing was published and the
   * files written were deleted. {@code latest} is the table the last conflict was read from.
   */
  public record GaveUp<T>(int plans, Snapshot latest, String reason) implements Unfenced<T> {}

  /**
   * A txn of the plan does not hold the version it expects (another writer owns the Kafka partition
   * now); nothing was published and the files written were deleted.
   */
  public record Fenced<T>(FencedException exception) implements Outcome<T> {}

  /**
   * Runs a transaction whose plans move no txn (a schema change, a compaction), from {@code snapshot}.
   *
   * @throws IllegalArgumentException when a plan names txns
   * @throws CommitConflictException see {@link #run}
   */
  public <T> Unfenced<T> runWithoutTxns(Snapshot snapshot, Planner<T> planner) throws IOException {
    Outcome<T> outcome = run(snapshot, new Planner<T>() {
      @Override
      public Optional<Plan<T>> plan(Snapshot base) throws IOException {
        Optional<Plan<T>> plan = planner.plan(base);
        if (plan.isPresent() && !plan.get().txns().isEmpty()) {
          throw new IllegalArgumentException("table " + base.tableRoot() + ": a transaction run without txns planned txns "
              + plan.get().txns().keySet());
        }
        return plan;
      }

      @Override
      public void invalidated(Snapshot latest, String reason) throws IOException {
        planner.invalidated(latest, reason);
      }
    });
    // the committer fences a commit only on the txns it records
    return (Unfenced<T>) outcome;
  }

  /**
   * Runs the transaction from {@code snapshot}.
   *
   * @throws CommitConflictException concurrent commits kept winning the versions one plan tried
   *     (the committer's attempts); the plan's files were deleted
   * @throws IOException reading or writing failed; see the class comment for the files written
   */
  public <T> Outcome<T> run(Snapshot snapshot, Planner<T> planner) throws IOException {
    Snapshot base = snapshot;
    String reason = null;
    for (int replans = 0; replans < maxPlans; replans++) {
      Optional<Plan<T>> planned = planner.plan(base);
      if (planned.isEmpty()) {
        return new Unchanged<>(base, replans);
      }
      Plan<T> plan = planned.get();
      CommitOutcome outcome;
      try {
        outcome = committer.commit(base, plan.staged(), plan.txns(), plan.tags(), plan.check());
      } catch (FencedException e) {
        Cleanup.deleteQuietly(storage, plan.staged().writtenFiles());
        return new Fenced<>(e);
      } catch (CommitConflictException e) {
        Cleanup.deleteQuietly(storage, plan.staged().writtenFiles());
        throw e;
      }
      if (outcome instanceof CommitOutcome.Committed committed) {
        return new Committed<>(committed.version(), base, committed.attempts(), replans, committed.actions(), plan.value());
      }
      CommitOutcome.Replan replan = (CommitOutcome.Replan) outcome;
      Cleanup.deleteQuietly(storage, plan.staged().writtenFiles());
      base = replan.latest();
      reason = replan.reason();
      planner.invalidated(base, reason);
    }
    return new GaveUp<>(maxPlans, base, reason);
  }
}
