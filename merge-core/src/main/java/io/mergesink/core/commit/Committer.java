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
import java.util.Set;

/**
 * Publishes staged commits with optimistic concurrency (docs/design.md, "Concurrency"). Each attempt creates the next
 * commit file put-if-absent; when another writer won that version, its actions are checked:
 * <ul>
 *   <li>it moved one of our txn app ids: we are fenced ({@link FencedException});
 *   <li>it removed or re-marked a file we read, or changed metadata or protocol: {@link CommitOutcome.Replan};
 *   <li>we read the whole table (a truncate) and it added or removed data: {@link CommitOutcome.Replan};
 *   <li>anything else (appends, other files, other txns): retry at the next version.
 * </ul>
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
   * Commits {@code staged} on top of {@code base}.
   *
   * @param ownAppIds txn app ids this writer owns; a concurrent commit touching any of them fences us
   * @throws FencedException another writer owns one of {@code ownAppIds} now; nothing was published
   * @throws CommitConflictException concurrent commits won {@code maxAttempts} times in a row
   */
  public CommitOutcome commit(Snapshot base, StagedCommit staged, Set<String> ownAppIds)
      throws IOException, FencedException {
    String root = base.tableRoot();
    long version = base.version() + 1;
    boolean assignsRowIds = RowTracking.assignsRowIds(base.protocol(), base.metadata());
    long highWaterMark = assignsRowIds ? RowTracking.highWaterMark(base.domainMetadata()) : RowTracking.NO_ROW_IDS;
    Long previousTimestamp = InCommitTimestamps.enabled(base.protocol(), base.metadata()) ? previousTimestamp(base) : null;
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      List<Action> actions = assignsRowIds ? RowTracking.assign(staged.actions(), version, highWaterMark) : staged.actions();
      Long timestamp = previousTimestamp == null ? null : InCommitTimestamps.next(previousTimestamp);
      byte[] entry = LogCodec.serialize(withCommitInfo(staged, actions, base.version(), timestamp));
      hook.beforePublish(root, version);
      if (storage.writeIfAbsent(LogPaths.commitFile(root, version), entry)) {
        if (timestamp != null) {
          lastPublished = new PublishedTimestamp(root, version, timestamp);
        }
        return new CommitOutcome.Committed(version, attempt, actions);
      }
      List<Action> winner = loader.readCommit(root, version);
      String reason = conflictWith(root, version, winner, staged, ownAppIds);
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
    byte[] entry = LogCodec.serialize(withCommitInfo(staged, staged.actions(), null, timestamp));
    hook.beforePublish(root, 0);
    if (storage.writeIfAbsent(LogPaths.commitFile(root, 0), entry)) {
      return new CommitOutcome.Committed(0, 1, staged.actions());
    }
    return new CommitOutcome.Replan(loader.latest(root), "another writer created the table first");
  }

  /** Null when {@code winner} leaves our plan valid; otherwise why we must plan again. */
  private static String conflictWith(String root, long version, List<Action> winner, StagedCommit staged, Set<String> ownAppIds)
      throws FencedException {
    Set<String> readFiles = staged.readFiles();
    boolean readWholeTable = staged.reads() == StagedCommit.Reads.WHOLE_TABLE;
    for (Action action : winner) {
      if (action instanceof SetTransaction txn && ownAppIds.contains(txn.appId())) {
        throw new FencedException(root, txn.appId(), version, "txn version " + txn.version());
      }
    }
    for (Action action : winner) {
      if (action instanceof Metadata || action instanceof Protocol) {
        return "version " + version + " changed the table's metadata or protocol";
      }
      if (readWholeTable && (action instanceof AddFile || action instanceof RemoveFile)) {
        return "version " + version + " changed the data of the table this commit replaces";
      }
      if (action instanceof RemoveFile remove && readFiles.contains(remove.path())) {
        return "version " + version + " removed or re-marked " + remove.path();
      }
      if (action instanceof AddFile add && readFiles.contains(add.path())) {
        return "version " + version + " re-added " + add.path();
      }
    }
    return null;
  }

  /**
   * The entry: a {@code commitInfo} ({@code readVersion} omitted when null: a new table;
   * {@code inCommitTimestamp} when not null), then {@code actions}.
   */
  private static List<Action> withCommitInfo(StagedCommit staged, List<Action> actions, Long readVersion, Long inCommitTimestamp) {
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
