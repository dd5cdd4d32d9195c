package io.mergesink.core.maintenance;

import io.mergesink.core.log.CheckpointWriter;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Log upkeep: checkpoints, and removal of log files older than {@code delta.logRetentionDuration}
 * (PROTOCOL.md, "Metadata Cleanup").
 *
 * <p>The cleanup keeps every version that is not yet expired reconstructable: it picks the newest
 * complete checkpoint whose commit is older than the retention cut-off and deletes only files of
 * lower versions (commits, checkpoints, Delta's {@code <version>.crc}, log compactions). The commit
 * file at that checkpoint's version stays (Delta Kernel wants it), and so do {@code _last_checkpoint}
 * and every file it cannot parse a version from. Txns live on in the checkpoint.
 */
public final class LogCleaner {
  /** {@code <20 digits>.<anything>}: commits, checkpoints, version checksums, log compactions ({@code v1.v2.compacted.json}). */
  private static final Pattern VERSIONED = Pattern.compile("(\\d{20})\\.(?:(\\d{20})\\.compacted\\.json|.+)");

  private final Storage storage;

  public LogCleaner(Storage storage) {
    this.storage = storage;
  }

  /**
   * Writes a classic checkpoint of {@code snapshot} and points {@code _last_checkpoint} at it (an
   * existing checkpoint of that version is kept).
   *
   * @throws io.mergesink.core.protocol.UnsupportedTableException when MergeSink cannot write the table
   */
  public void checkpoint(Snapshot snapshot) throws IOException {
    ProtocolSupport.checkWritable(snapshot.tableRoot(), snapshot.protocol(), snapshot.metadata());
    CheckpointWriter.write(storage, snapshot.tableRoot(), snapshot);
  }

  /** The expired log files of {@code root} at {@code nowMillis}, for the given retention; nothing is deleted. */
  public LogCleanup plan(String root, Duration retention, long nowMillis) throws IOException {
    long cutoff = nowMillis - retention.toMillis();
    List<Storage.FileInfo> files = storage.listFrom(LogPaths.logDir(root), "");
    Map<Long, Storage.FileInfo> commits = new HashMap<>();
    TreeMap<Long, Map<Integer, List<Integer>>> checkpointParts = new TreeMap<>();
    for (Storage.FileInfo file : files) {
      LogPaths.commitVersion(file.name()).ifPresent(v -> commits.put(v, file));
      LogPaths.checkpointName(file.name()).ifPresent(c -> checkpointParts.computeIfAbsent(c.version(), v -> new HashMap<>())
          .computeIfAbsent(c.parts(), n -> new ArrayList<>()).add(c.part()));
    }
    OptionalLong keep = OptionalLong.empty();
    for (Long version : checkpointParts.descendingKeySet()) {
      boolean complete = checkpointParts.get(version).entrySet().stream().anyMatch(e -> e.getValue().size() == e.getKey());
      Storage.FileInfo commit = commits.get(version);
      if (complete && commit != null && commit.modificationTime() < cutoff) {
        keep = OptionalLong.of(version);
        break;
      }
    }
    if (keep.isEmpty()) {
      return new LogCleanup(keep, List.of());
    }
    List<Storage.FileInfo> expired = new ArrayList<>();
    for (Storage.FileInfo file : files) {
      Matcher m = VERSIONED.matcher(file.name());
      if (m.matches()) {
        long last = Long.parseLong(m.group(2) != null ? m.group(2) : m.group(1));
        if (last < keep.getAsLong()) {
          expired.add(file);
        }
      }
    }
    return new LogCleanup(keep, expired);
  }

  /**
   * Deletes the expired log files of {@code root} (see {@link #plan}).
   *
   * @return what was deleted
   * @throws IOException when a deletion fails; files deleted before stay deleted, which leaves the
   *     table readable (lower versions go first)
   */
  public LogCleanup clean(String root, Duration retention, long nowMillis) throws IOException {
    LogCleanup plan = plan(root, retention, nowMillis);
    for (Storage.FileInfo file : plan.expiredFiles()) {
      storage.delete(file.path());
    }
    return plan;
  }
}
