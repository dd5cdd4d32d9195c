package io.mergesink.core.snapshot;

import io.mergesink.core.log.Action;
import io.mergesink.core.log.CheckpointReader;
import io.mergesink.core.log.LastCheckpoint;
import io.mergesink.core.log.LogCodec;
import io.mergesink.core.log.LogFormatException;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.snapshot.LogListing.LogSegment;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds {@link Snapshot}s from a table's {@code _delta_log}: the latest complete checkpoint, then
 * the JSON commits after it (PROTOCOL.md, "Checkpoints" and "Action Reconciliation").
 *
 * <p>Opening costs O(checkpoint + tail): {@code _last_checkpoint} says where the log starts. On
 * local storage the loader looks the checkpoint and the commits after it up by name (a listing
 * would read the whole directory, i.e. the whole history); elsewhere it lists from the hint's
 * version. When the hint is missing, unreadable or points at a checkpoint that is gone, the loader
 * lists from version 0 instead; when it is stale, the lookups or the listing from its version still
 * find newer checkpoints ({@link LogListing#probe} says what lookups cannot see). Only
 * file names that parse as commits or checkpoints (classic, multi-part, UUID-named V2) count
 * ({@code .crc} and temp files are ignored).
 *
 * <p>Thread-safe: it holds no state besides the storage.
 */
public final class SnapshotLoader {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotLoader.class);

  private final Storage storage;

  public SnapshotLoader(Storage storage) {
    this.storage = storage;
  }

  /**
   * The latest snapshot of the table at {@code root}.
   *
   * @throws TableNotFoundException when {@code _delta_log} is missing or holds no commit or checkpoint
   * @throws InvalidTableException when a commit needed for the replay is missing
   * @throws LogFormatException when a commit or checkpoint is malformed
   * @throws IOException when the storage fails
   */
  public Snapshot latest(String root) throws IOException {
    return load(root, OptionalLong.empty());
  }

  /**
   * The snapshot of version {@code version}.
   *
   * @throws InvalidTableException when the version does not exist or cannot be rebuilt (its commits
   *     were cleaned up and no checkpoint at or before it remains)
   * @see #latest(String) for the other exceptions
   */
  public Snapshot atVersion(String root, long version) throws IOException {
    if (version < 0) {
      throw new IllegalArgumentException("a Delta version is >= 0, found " + version + " for table " + root);
    }
    return load(root, OptionalLong.of(version));
  }

  /**
   * The latest snapshot, built from {@code base} by replaying only the commits after it; {@code base}
   * itself when nothing was committed since. Falls back to {@link #latest} when the commits right
   * after {@code base} are gone (log cleanup).
   */
  public Snapshot update(Snapshot base) throws IOException {
    String root = base.tableRoot();
    LogListing listing = LogListing.list(storage, root, base.version() + 1);
    Optional<List<String>> newer = listing.commitsAfter(base.version());
    if (newer.isEmpty()) {
      return latest(root);
    }
    if (newer.get().isEmpty()) {
      return base;
    }
    LogReplay replay = new LogReplay(base);
    for (String commit : newer.get()) {
      replay.apply(LogCodec.parse(storage.readAll(commit), commit));
    }
    return replay.toSnapshot(base.version() + newer.get().size());
  }

  /**
   * The actions of the commit file of {@code version}, in file order.
   *
   * @throws java.io.FileNotFoundException when the commit does not exist
   * @throws LogFormatException when it is malformed
   */
  public List<Action> readCommit(String root, long version) throws IOException {
    String path = LogPaths.commitFile(root, version);
    return LogCodec.parse(storage.readAll(path), path);
  }

  private Snapshot load(String root, OptionalLong target) throws IOException {
    Optional<LastCheckpoint> hint = readHint(root).filter(h -> target.isEmpty() || h.version() <= target.getAsLong());
    Optional<LogSegment> segment = Optional.empty();
    if (hint.isPresent()) {
      segment = segment(root, fromCheckpoint(root, hint.get(), target), target);
    }
    if (segment.isEmpty() && (hint.isEmpty() || hint.get().version() > 0)) { // a hint at 0 was already listed from 0
      segment = segment(root, LogListing.list(storage, root, 0), target);
    }
    if (segment.isEmpty()) {
      throw new TableNotFoundException(root);
    }
    return replay(root, segment.get());
  }

  /**
   * The log from the checkpoint {@code hint} names: looked up name by name on storage that
   * {@linkplain Storage#prefersLookupsToListing prefers lookups} (a local directory is read whole
   * by every listing, so listing would cost the whole history), listed from the hint's version
   * otherwise and when the hinted checkpoint is not there.
   */
  private LogListing fromCheckpoint(String root, LastCheckpoint hint, OptionalLong target) throws IOException {
    if (storage.prefersLookupsToListing()) {
      Optional<LogListing> probed = LogListing.probe(storage, root, hint, target.orElse(Long.MAX_VALUE));
      if (probed.isPresent()) {
        return probed.get();
      }
    }
    return LogListing.list(storage, root, hint.version());
  }

  /** {@code _last_checkpoint} is only a hint: unreadable (e.g. a stale Hadoop .crc beside it) counts as missing. */
  private Optional<LastCheckpoint> readHint(String root) {
    try {
      return LastCheckpoint.read(storage, root);
    } catch (IOException e) {
      LOG.warn("ignoring unreadable {} of table {}: {}", LogPaths.LAST_CHECKPOINT, root, e.toString());
      return Optional.empty();
    }
  }

  private static Optional<LogSegment> segment(String root, LogListing listing, OptionalLong target) {
    OptionalLong latest = listing.latestVersion();
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    long version = target.orElse(latest.getAsLong());
    if (version > latest.getAsLong()) {
      throw new InvalidTableException("table " + root + " has no version " + version + "; the latest is "
          + latest.getAsLong());
    }
    return listing.segment(version);
  }

  private Snapshot replay(String root, LogSegment segment) throws IOException {
    LogReplay replay = new LogReplay(root);
    if (segment.checkpointVersion() != null) {
      replay.apply(CheckpointReader.read(storage, root, segment.checkpointParts()));
      replay.checkpointLoaded(segment.checkpointVersion());
    }
    for (String commit : segment.commits()) {
      replay.apply(LogCodec.parse(storage.readAll(commit), commit));
    }
    return replay.toSnapshot(segment.firstCommitVersion() + segment.commits().size() - 1);
  }
}
