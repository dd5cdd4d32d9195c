package io.mergesink.core.commit;

import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A commit ready to publish: its actions (data files, DV files already written), the files whose
 * current state the actions depend on, and the txn app ids it moves.
 *
 * @param actions the log entry, without {@code commitInfo} (the committer adds it)
 * @param readFiles table-relative paths of live files the plan read (looked up, marked or rewrote);
 *     a concurrent commit that removes or re-marks one of them invalidates the plan
 * @param writtenFiles absolute paths of files written for this commit; deleted when it is abandoned
 * @param operation the {@code commitInfo.operation} name
 * @param metrics the {@code commitInfo.operationMetrics}
 * @param reads what the plan depends on: only {@code readFiles}, also the keys of the files in
 *     {@code scope}, or every live row of them
 * @param scope with {@link Reads#KEYS_IN_SCOPE} or {@link Reads#WHOLE_TABLE}, the files whose keys or
 *     rows the plan depends on (a writer's scope, docs/design.md "File ownership"); every file for a truncate
 * @param keysLookedUp with {@link Reads#KEYS_IN_SCOPE}, whether a file added in scope holds a key the plan looked up
 */
public record StagedCommit(
    List<Action> actions, Set<String> readFiles, List<String> writtenFiles, String operation, java.util.Map<String, String> metrics,
    Reads reads, Predicate<AddFile> scope, KeyProbe keysLookedUp) {

  /** Whether a data file another writer added holds a live row of one of the keys a plan looked up. */
  @FunctionalInterface
  public interface KeyProbe {
    /** Any file may: for plans that did not say which keys they looked up. */
    KeyProbe ANY_KEY = added -> true;

    boolean holdsAny(AddFile added) throws IOException;
  }

  /** What a plan read, and so which concurrent commits invalidate it. */
  public enum Reads {
    /** The files in {@code readFiles}: a concurrent commit removing or re-marking one of them invalidates the plan. */
    LISTED_FILES,
    /**
     * The files in {@code readFiles}, and which keys the files in {@code scope} hold (a keyed merge:
     * a key it found in none of them is inserted, or its delete changes nothing): a concurrent commit
     * adding data in {@code scope} that holds one of the keys looked up ({@code keysLookedUp})
     * invalidates the plan, else the key would have two live rows (docs/design.md, "Concurrency").
     */
    KEYS_IN_SCOPE,
    /**
     * The whole table (a truncate; a change set decided from live rows it read, docs/design.md
     * "History tables"): any concurrent commit that adds or removes data in {@code scope}
     * invalidates the plan, since the new rows would survive it or the rows read changed.
     */
    WHOLE_TABLE
  }

  public StagedCommit {
    actions = List.copyOf(actions);
    readFiles = Set.copyOf(readFiles);
    writtenFiles = List.copyOf(writtenFiles);
    metrics = java.util.Map.copyOf(metrics);
    java.util.Objects.requireNonNull(reads, "reads");
    java.util.Objects.requireNonNull(scope, "scope");
    java.util.Objects.requireNonNull(keysLookedUp, "keysLookedUp");
  }

  /** A commit whose plan read {@code reads} of every file. */
  public StagedCommit(
      List<Action> actions, Set<String> readFiles, List<String> writtenFiles, String operation, java.util.Map<String, String> metrics,
      Reads reads) {
    this(actions, readFiles, writtenFiles, operation, metrics, reads, file -> true, KeyProbe.ANY_KEY);
  }

  /** This commit, its plan depending on every live row of the files in {@code filesRead}. */
  public StagedCommit readingWholeScope(Predicate<AddFile> filesRead) {
    return new StagedCommit(actions, readFiles, writtenFiles, operation, metrics, Reads.WHOLE_TABLE, filesRead, KeyProbe.ANY_KEY);
  }

  /** This commit, its plan depending also on whether the files in {@code filesIndexed} hold the keys it looked up. */
  public StagedCommit readingKeysOfScope(Predicate<AddFile> filesIndexed, KeyProbe keysLookedUp) {
    return new StagedCommit(actions, readFiles, writtenFiles, operation, metrics, Reads.KEYS_IN_SCOPE, filesIndexed, keysLookedUp);
  }

  /** A commit whose plan read only {@code readFiles}. */
  public StagedCommit(
      List<Action> actions, Set<String> readFiles, List<String> writtenFiles, String operation, java.util.Map<String, String> metrics) {
    this(actions, readFiles, writtenFiles, operation, metrics, Reads.LISTED_FILES);
  }
}
