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
 */
public final class Committer {
  public static final String ENGINE_INFO = "MergeSink/" + Committer.class.getPackage().getImplementationVersion();
  private final Storage storage;
  private final SnapshotLoader loader;
  private final int maxAttempts;
  private final CommitHook hook;

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
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      byte[] entry = LogCodec.serialize(withCommitInfo(staged, base.version()));
      hook.beforePublish(root, version);
      if (storage.writeIfAbsent(LogPaths.commitFile(root, version), entry)) {
        return new CommitOutcome.Committed(version, attempt);
      }
      String reason = conflictWith(root, version, loader.readCommit(root, version), staged, ownAppIds);
      if (reason != null) {
        return new CommitOutcome.Replan(loader.update(base), reason);
      }
      version++;
    }
    throw new CommitConflictException(root, maxAttempts, version - 1);
  }

  /**
   * Creates the table: publishes {@code staged} (its {@code protocol} and {@code metaData}) as
   * version 0 of {@code root}, whose log directory must exist.
   *
   * @return {@link CommitOutcome.Committed} at version 0, or {@link CommitOutcome.Replan} with the
   *     table another writer created first (the caller decides whether it fits)
   */
  public CommitOutcome create(String root, StagedCommit staged) throws IOException {
    byte[] entry = LogCodec.serialize(withCommitInfo(staged, null));
    hook.beforePublish(root, 0);
    if (storage.writeIfAbsent(LogPaths.commitFile(root, 0), entry)) {
      return new CommitOutcome.Committed(0, 1);
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

  /** The entry: a {@code commitInfo} ({@code readVersion} omitted when null: a new table), then the staged actions. */
  private static List<Action> withCommitInfo(StagedCommit staged, Long readVersion) {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("timestamp", System.currentTimeMillis());
    info.put("operation", staged.operation());
    info.put("operationParameters", Map.of());
    if (readVersion != null) {
      info.put("readVersion", readVersion);
    }
    info.put("isBlindAppend", isBlindAppend(staged));
    info.put("operationMetrics", staged.metrics());
    info.put("engineInfo", ENGINE_INFO);
    List<Action> actions = new ArrayList<>(staged.actions().size() + 1);
    actions.add(new CommitInfo(info));
    actions.addAll(staged.actions());
    return actions;
  }

  /** Whether the commit only adds files without having read any (Delta's {@code isBlindAppend}). */
  private static boolean isBlindAppend(StagedCommit staged) {
    return staged.readFiles().isEmpty()
        && staged.actions().stream().allMatch(action -> action instanceof AddFile || action instanceof SetTransaction);
  }
}
