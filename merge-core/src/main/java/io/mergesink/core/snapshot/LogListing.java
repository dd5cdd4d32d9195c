package io.mergesink.core.snapshot;

import io.mergesink.core.log.LastCheckpoint;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.LogPaths.CheckpointName;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The commits and complete checkpoints (classic, multi-part and UUID-named V2) of {@code _delta_log}
 * from a start version, found by one listing ({@link #list}) or by looking names up from a
 * checkpoint on ({@link #probe}). Other files ({@code .crc}, {@code _last_checkpoint}, temp files,
 * log compactions, the {@code _sidecars} directory) are ignored. Of several complete checkpoints of
 * one version any may be used (PROTOCOL.md, "Checkpoints": they hold the same state).
 */
final class LogListing {
  private final String root;
  private final long fromVersion;
  private final TreeMap<Long, String> commits = new TreeMap<>();
  /** version → number of parts → part number → path. */
  private final TreeMap<Long, Map<Integer, TreeMap<Integer, String>>> checkpointParts = new TreeMap<>();

  private LogListing(String root, long fromVersion) {
    this.root = root;
    this.fromVersion = fromVersion;
  }

  /** Lists {@code _delta_log} from {@code fromVersion}: the cost is the number of files at or after it. */
  static LogListing list(Storage storage, String root, long fromVersion) throws IOException {
    LogListing listing = new LogListing(root, fromVersion);
    for (Storage.FileInfo file : storage.listFrom(LogPaths.logDir(root), LogPaths.paddedVersion(fromVersion))) {
      OptionalLong commit = LogPaths.commitVersion(file.name());
      if (commit.isPresent()) {
        listing.commits.put(commit.getAsLong(), file.path());
        continue;
      }
      LogPaths.checkpointName(file.name()).ifPresent(c -> listing.addCheckpointPart(c, file.path()));
    }
    return listing;
  }

  /**
   * The log from the checkpoint {@code hint} names, found without listing: its files, then commit
   * after commit up to {@code upTo} until one is missing, and at each commit's version a newer
   * single-file checkpoint if there is one. The cost is two lookups per version after the
   * checkpoint, however long the history before it.
   *
   * <p>A newer multi-part or UUID-named checkpoint has a name no reader can guess, so a hint that missed one
   * (a writer stopped between checkpoint and hint) costs replaying more commits, not a wrong
   * state. Unlike a listing this cannot see past a missing commit: a log with a gap after the
   * checkpoint reads as ending before the gap. Log cleanup deletes lower versions first, so
   * while the checkpoint exists the commits after it do too.
   *
   * @return empty when a file of the hinted checkpoint is missing (cleaned up, or the hint is
   *     wrong), for the caller to list instead
   */
  static Optional<LogListing> probe(Storage storage, String root, LastCheckpoint hint, long upTo) throws IOException {
    long checkpointVersion = hint.version();
    int parts = hint.parts() == null ? 1 : hint.parts();
    if (parts < 1) {
      return Optional.empty();
    }
    LogListing listing = new LogListing(root, checkpointVersion);
    for (int part = 1; part <= parts; part++) {
      String path;
      if (hint.v2CheckpointFile() != null) {
        path = LogPaths.logFile(root, hint.v2CheckpointFile());
      } else if (hint.parts() == null) {
        path = LogPaths.checkpointFile(root, checkpointVersion);
      } else {
        path = LogPaths.checkpointPartFile(root, checkpointVersion, part, parts);
      }
      if (!storage.exists(path)) {
        return Optional.empty();
      }
      listing.addCheckpointPart(new CheckpointName(checkpointVersion, part, parts), path);
    }
    for (long version = checkpointVersion + 1; version <= upTo; version++) {
      String commit = LogPaths.commitFile(root, version);
      if (!storage.exists(commit)) {
        break;
      }
      listing.commits.put(version, commit);
      String checkpoint = LogPaths.checkpointFile(root, version);
      if (storage.exists(checkpoint)) {
        listing.addCheckpointPart(new CheckpointName(version, 1, 1), checkpoint);
      }
    }
    return Optional.of(listing);
  }

  private void addCheckpointPart(CheckpointName name, String path) {
    checkpointParts.computeIfAbsent(name.version(), v -> new TreeMap<>())
        .computeIfAbsent(name.parts(), n -> new TreeMap<>())
        .put(name.part(), path);
  }

  /** The highest version with a commit or a complete checkpoint; empty for an empty listing. */
  OptionalLong latestVersion() {
    long latest = -1;
    if (!commits.isEmpty()) {
      latest = commits.lastKey();
    }
    for (Long version : checkpointParts.descendingKeySet()) {
      if (version > latest && completeCheckpoint(version).isPresent()) {
        latest = version;
        break;
      }
    }
    return latest < 0 ? OptionalLong.empty() : OptionalLong.of(latest);
  }

  /**
   * The files to replay for {@code version}: the latest complete checkpoint at or before it and the
   * commits after it. Empty when this listing cannot tell (no checkpoint, and it does not start at
   * version 0, or a commit after the checkpoint is missing from a listing that started later).
   *
   * @throws InvalidTableException when the listing starts at 0 and still has a gap
   */
  Optional<LogSegment> segment(long version) {
    Long checkpointVersion = null;
    List<String> checkpoint = List.of();
    for (Long v : checkpointParts.headMap(version, true).descendingKeySet()) {
      Optional<List<String>> parts = completeCheckpoint(v);
      if (parts.isPresent()) {
        checkpointVersion = v;
        checkpoint = parts.get();
        break;
      }
    }
    if (checkpointVersion == null && fromVersion > 0) {
      return Optional.empty();
    }
    long first = checkpointVersion == null ? 0 : checkpointVersion + 1;
    List<String> deltas = new ArrayList<>();
    for (long v = first; v <= version; v++) {
      String commit = commits.get(v);
      if (commit == null) {
        throw new InvalidTableException("table " + root + ": cannot build version " + version + ", commit "
            + LogPaths.commitFile(root, v) + " is missing"
            + (checkpointVersion == null ? " and no checkpoint precedes it" : " after checkpoint " + checkpointVersion));
      }
      deltas.add(commit);
    }
    return Optional.of(new LogSegment(checkpointVersion, checkpoint, first, deltas));
  }

  /** The commits after {@code version}, which must follow it without a gap; empty when there are none. */
  Optional<List<String>> commitsAfter(long version) {
    List<String> deltas = new ArrayList<>();
    long expected = version + 1;
    for (Map.Entry<Long, String> commit : commits.tailMap(version, false).entrySet()) {
      if (commit.getKey() != expected) {
        return Optional.empty();
      }
      deltas.add(commit.getValue());
      expected++;
    }
    return Optional.of(deltas);
  }

  private Optional<List<String>> completeCheckpoint(long version) {
    Map<Integer, TreeMap<Integer, String>> byPartCount = checkpointParts.get(version);
    if (byPartCount == null) {
      return Optional.empty();
    }
    for (Map.Entry<Integer, TreeMap<Integer, String>> candidate : byPartCount.entrySet()) {
      if (candidate.getValue().size() == candidate.getKey()) {
        return Optional.of(List.copyOf(candidate.getValue().values()));
      }
    }
    return Optional.empty();
  }

  /**
   * What to replay for one version.
   *
   * @param checkpointVersion the checkpoint's version, null when replaying from version 0
   * @param checkpointParts the checkpoint's files in part order (empty without checkpoint)
   * @param firstCommitVersion the version of {@code commits.get(0)}
   */
  record LogSegment(Long checkpointVersion, List<String> checkpointParts, long firstCommitVersion, List<String> commits) {}
}
