package io.mergesink.core.commit;

import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.log.LogCodec;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.log.RemoveFile;
import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.rowtracking.RowTracking;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Publishes staged commits with optimistic concurrency (docs/design.md, "Concurrency"), and is where
 * the exactly-once rule meets the log (docs/design.md, "Exactly once"): every {@code txn} a commit
 * records is a compare-and-set ({@link TxnChange}), checked against the snapshot the commit is based
 * on and against every commit that wins a version before it. Each attempt creates the next commit
 * file put-if-absent; when another writer won that version, its actions are checked:
 * <ul>
 *   <li>it moved one of our txn app ids to a version other than the one we expect: we are fenced
 *       ({@link FencedException});
 *   <li>it removed or re-marked a file we read, or changed metadata or protocol: {@link CommitOutcome.Replan};
 *   <li>we looked keys up in our scope (a keyed merge), and it added a row of one of them there
 *       (its new files are read for our keys): {@link CommitOutcome.Replan};
 *   <li>we read the whole table (a truncate), or every row of our scope, and it added or removed data
 *       there: {@link CommitOutcome.Replan};
 *   <li>anything else (appends, other files, other txns): retry at the next version.
 * </ul>
 * Every log entry MergeSink writes goes through here: table creation, schema and property changes,
 * merges, appends, txn-only commits, compactions.
 * Each attempt is made for its version: on a table with row tracking the new files get row ids above
 * the high-water mark of that version and the version as their row commit version
 * ({@link RowTracking}); with in-commit timestamps enabled, {@code commitInfo} carries one later than
 * the previous commit's ({@link InCommitTimestamps}).
 */
public final class Committer {
  public static final String ENGINE_INFO = "MergeSink/" + Committer.class.getPackage().getImplementationVersion();
  private final Storage storage;
  private final SnapshotLoader loader;
  private final int maxAttempts;
  private final CommitHook hook;
  private PublishedTimestamp lastPublished;

  public Committer(Storage storage, SnapshotLoader loader, int maxAttempts, CommitHook hook) {
    this.storage = storage;
    this.loader = loader;
    this.maxAttempts = maxAttempts;
    this.hook = hook;
  }

  /**
   * Commits {@code staged} on top of {@code base}, recording {@code txns} in the same entry.
   *
   * @param txns per txn app id, the version the table must hold for the commit to land and the one
   *     it records (empty for commits that move no Kafka position)
   * @throws FencedException the table holds (in {@code base}) or a concurrent commit wrote another
   *     version of one of {@code txns} than expected; nothing was published
   * @throws CommitConflictException concurrent commits won {@code maxAttempts} times in a row
   */
  public CommitOutcome commit(Snapshot base, StagedCommit staged, Map<String, TxnChange> txns)
      throws IOException, FencedException {
    return commit(base, staged, txns, Map.of(), WinnerCheck.NONE);
  }

  /** What a writer knows beyond its plan about which concurrent commits invalidate it. */
  @FunctionalInterface
  public interface WinnerCheck {
    WinnerCheck NONE = (version, winner) -> null;

    /** Why {@code winner}, the entry of {@code version}, invalidates the plan; null when it does not. */
    String invalidates(long version, List<Action> winner) throws IOException;
  }

  /**
   * {@link #commit(Snapshot, StagedCommit, Map)} with {@code tags} in the entry's
   * {@code commitInfo.tags} (what the writer tells later readers of the log about this commit),
   * planning again also when {@code check} says a concurrent commit invalidates the plan.
   */
  public CommitOutcome commit(Snapshot base, StagedCommit staged, Map<String, TxnChange> txns, Map<String, String> tags,
      WinnerCheck check) throws IOException, FencedException {
    String root = base.tableRoot();
    for (Map.Entry<String, TxnChange> txn : txns.entrySet()) {
      checkTxn(root, base.version(), txn.getKey(), txn.getValue(), base.txnVersion(txn.getKey()));
    }
    List<Action> withTxns = withTxns(staged.actions(), txns);
    long version = base.version() + 1;
    boolean assignsRowIds = RowTracking.assignsRowIds(base.protocol(), base.metadata());
    long highWaterMark = assignsRowIds ? RowTracking.highWaterMark(base.domainMetadata()) : RowTracking.NO_ROW_IDS;
    Long previousTimestamp = InCommitTimestamps.enabled(base.protocol(), base.metadata()) ? previousTimestamp(base) : null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      List<Action> actions = assignsRowIds ? RowTracking.assign(withTxns, version, highWaterMark) : withTxns;
      Long timestamp = previousTimestamp == null ? null : InCommitTimestamps.next(previousTimestamp);
      byte[] entry = LogCodec.serialize(withCommitInfo(staged, actions, base.version(), timestamp, tags));
      hook.beforePublish(root, version);
      if (storage.writeIfAbsent(LogPaths.commitFile(root, version), entry)) {
        if (timestamp != null) {
          lastPublished = new PublishedTimestamp(root, version, timestamp);
        }
        return new CommitOutcome.Committed(version, attempt, actions);
      }
      List<Action> winner = loader.readCommit(root, version);
      checkWinner(root, version, winner, txns);
      String reason = conflictWith(version, winner, staged, base);
      if (reason == null) {
        reason = check.invalidates(version, winner);
      }
      if (reason != null) {
        return new CommitOutcome.Replan(loader.update(base), reason);
      }
      highWaterMark = RowTracking.highWaterMark(winner, highWaterMark);
      if (previousTimestamp != null) {
        previousTimestamp = InCommitTimestamps.of(winner).orElse(previousTimestamp);
      }
      version++;
    }
    throw new CommitConflictException(root, maxAttempts, version - 1);
  }

  /** The in-commit timestamp of {@code base}'s version: the one this committer published there, else read from its commit. */
  private long previousTimestamp(Snapshot base) throws IOException {
    PublishedTimestamp last = lastPublished;
    if (last != null && last.root().equals(base.tableRoot()) && last.version() == base.version()) {
      return last.timestamp();
    }
    return InCommitTimestamps.of(loader.readCommit(base.tableRoot(), base.version())).orElse(Long.MIN_VALUE);
  }

  /** The in-commit timestamp this committer published last, so that its next commit need not read it back. */
  private record PublishedTimestamp(String root, long version, long timestamp) {}

  /**
   * Creates the table: publishes {@code staged} (its {@code protocol} and {@code metaData}) as
   * version 0 of {@code root}, whose log directory must exist.
   *
   * @return {@link CommitOutcome.Committed} at version 0, or {@link CommitOutcome.Replan} with the
   *     table another writer created first (the caller decides whether it fits)
   */
  public CommitOutcome create(String root, StagedCommit staged) throws IOException {
    Long timestamp = staged.actions().stream().anyMatch(InCommitTimestamps::enables) ? InCommitTimestamps.next(Long.MIN_VALUE) : null;
    byte[] entry = LogCodec.serialize(withCommitInfo(staged, staged.actions(), null, timestamp, Map.of()));
    hook.beforePublish(root, 0);
    if (storage.writeIfAbsent(LogPaths.commitFile(root, 0), entry)) {
      return new CommitOutcome.Committed(0, 1, staged.actions());
    }
    return new CommitOutcome.Replan(loader.latest(root), "another writer created the table first");
  }

  /** The compare-and-set of one txn app id: the table (at {@code version}) must hold what {@code change} expects. */
  private static void checkTxn(String root, long version, String appId, TxnChange change, OptionalLong held) throws FencedException {
    if (!held.equals(change.expected())) {
      throw new FencedException(root, appId, version, change.expected(), held);
    }
  }

  /** Fences us when {@code winner} moved one of our app ids away from the version we expect. */
  private static void checkWinner(String root, long version, List<Action> winner, Map<String, TxnChange> txns) throws FencedException {
    for (Action action : winner) {
      if (action instanceof SetTransaction txn && txns.containsKey(txn.appId())) {
        checkTxn(root, version, txn.appId(), txns.get(txn.appId()), OptionalLong.of(txn.version()));
      }
    }
  }

  /**
   * Null when {@code winner} leaves our plan valid; otherwise why we must plan again. Files the
   * winner added are probed for our keys last, after every check that reads nothing.
   */
  private static String conflictWith(long version, List<Action> winner, StagedCommit staged, Snapshot base) throws IOException {
    Set<String> readFiles = staged.readFiles();
    boolean readWholeTable = staged.reads() == StagedCommit.Reads.WHOLE_TABLE;
    List<AddFile> addedInScope = new ArrayList<>();
    for (Action action : winner) {
      if (action instanceof Metadata || action instanceof Protocol) {
        return "version " + version + " changed the table's metadata or protocol";
      }
      if (readWholeTable && (action instanceof AddFile add && staged.scope().test(add)
          || action instanceof RemoveFile remove && inScopeOrUnknown(base, remove, staged))) {
        return "version " + version + " changed the data of the table this commit depends on";
      }
      if (action instanceof RemoveFile remove && readFiles.contains(remove.path())) {
        return "version " + version + " removed or re-marked " + remove.path();
      }
      if (action instanceof AddFile add && readFiles.contains(add.path())) {
        return "version " + version + " re-added " + add.path();
      }
      if (action instanceof AddFile add && add.dataChange() && staged.scope().test(add)) {
        addedInScope.add(add);
      }
    }
    if (staged.reads() == StagedCommit.Reads.KEYS_IN_SCOPE) {
      for (AddFile add : addedInScope) {
        if (staged.keysLookedUp().holdsAny(add)) {
          return "version " + version + " added " + add.path() + ", which holds a key this commit looked up";
        }
      }
    }
    return null;
  }

  /** Whether {@code remove} drops a file of {@code base} in the staged commit's scope, or one added since (unknown: in). */
  private static boolean inScopeOrUnknown(Snapshot base, RemoveFile remove, StagedCommit staged) {
    AddFile removed = base.files().get(remove.path());
    return removed == null || staged.scope().test(removed);
  }

  /** {@code actions} followed by a {@code txn} action for each of {@code txns}. */
  private static List<Action> withTxns(List<Action> actions, Map<String, TxnChange> txns) {
    if (txns.isEmpty()) {
      return actions;
    }
    long now = System.currentTimeMillis();
    List<Action> all = new ArrayList<>(actions.size() + txns.size());
    all.addAll(actions);
    txns.forEach((appId, change) -> all.add(new SetTransaction(appId, change.version(), now)));
    return List.copyOf(all);
  }

  /**
   * The entry: a {@code commitInfo} ({@code readVersion} omitted when null: a new table;
   * {@code inCommitTimestamp} when not null; {@code tags} when there are any), then {@code actions}.
   */
  private static List<Action> withCommitInfo(StagedCommit staged, List<Action> actions, Long readVersion, Long inCommitTimestamp,
      Map<String, String> tags) {
    Map<String, Object> info = new LinkedHashMap<>();
    if (inCommitTimestamp != null) {
      info.put(InCommitTimestamps.FIELD, inCommitTimestamp);
    }
    info.put("timestamp", inCommitTimestamp == null ? System.currentTimeMillis() : inCommitTimestamp);
    info.put("operation", staged.operation());
    info.put("operationParameters", Map.of());
    if (readVersion != null) {
      info.put("readVersion", readVersion);
    }
    info.put("isBlindAppend", isBlindAppend(staged));
    info.put("operationMetrics", staged.metrics());
    info.put("engineInfo", ENGINE_INFO);
    if (!tags.isEmpty()) {
      info.put(CommitInfo.TAGS, tags);
    }
    List<Action> entry = new ArrayList<>(actions.size() + 1);
    entry.add(new CommitInfo(info));
    entry.addAll(actions);
    return entry;
  }

  /** Whether the commit only adds files without having read any (Delta's {@code isBlindAppend}). */
  private static boolean isBlindAppend(StagedCommit staged) {
    return staged.readFiles().isEmpty()
        && staged.actions().stream().allMatch(action -> action instanceof AddFile || action instanceof SetTransaction);
  }
}
