package io.mergesink.ingest.format.paimon;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.MovedRowsException;
import io.mergesink.core.commit.TxnChange;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.SnapshotCommit;
import org.apache.paimon.partition.PartitionStatistics;
import org.apache.paimon.table.CatalogEnvironment;
import org.apache.paimon.utils.SnapshotManager;

/**
 * The compare-and-set of a commit's Kafka positions (docs/paimon.md, "Exactly once"), run where
 * Paimon publishes a snapshot: Paimon builds snapshot {@code N} on the latest snapshot {@code N-1}
 * and publishes it by a put-if-absent of {@code snapshot-N} (an atomic rename, or the catalog's
 * lock), so a check of snapshot {@code N-1} made just before is a check of the parent the snapshot
 * lands on. Each snapshot of an armed commit records in its properties the positions of its parent
 * with the commit's moves applied; each move must find its partition where it expects it, else the
 * snapshot is refused and the guard stays {@link #fenced()} for the rest of the commit. Likewise a
 * change set that must not land after a commit carrying a tag ({@link ChangeSet#checkTags}: a
 * delete another task traced) is refused when a snapshot since its decision carries one, and the
 * guard holds why ({@link #invalidated()}).
 *
 * <p>A snapshot of a commit that compacts a bucket whose deletion vectors another writer changed
 * since the write restored it is refused too ({@link BucketDeletionVectors}).
 *
 * <p>Paimon retries a publication that failed; the writer's table runs with
 * {@code commit.max-retries=0}, so a refused snapshot ends the commit at once and the writer
 * decides what to do. Not thread-safe: one commit at a time.
 */
final class PositionGuard {
  private Map<String, TxnChange> moves = Map.of();
  private Map<String, String> tags = Map.of();
  private ChangeSet changes;
  private MovedRowsException invalidated;
  private boolean moved;
  private String fenced;
  private OptionalLong fencedAt = OptionalLong.empty();
  private long fencedVersion;

  /**
   * Arms the guard for one commit of {@code changeSet}: the positions it moves, with what it
   * expects, the tags of its first snapshot, and the tags no snapshot since its decision may carry.
   */
  void arm(ChangeSet changeSet) {
    arm(changeSet.txns(), changeSet.commitTags());
    changes = changeSet;
  }

  /** Arms the guard for one commit that lands no change set: the positions it moves and the tags of its first snapshot. */
  void arm(Map<String, TxnChange> commitMoves, Map<String, String> commitTags) {
    moves = Map.copyOf(commitMoves);
    tags = Map.copyOf(commitTags);
    changes = null;
    invalidated = null;
    moved = false;
    fenced = null;
    fencedAt = OptionalLong.empty();
  }

  /** Whether a snapshot of the armed commit landed with its moves. */
  boolean moved() {
    return moved;
  }

  /** Why a snapshot since the change set's decision makes it decided on what is no longer so, or null. */
  MovedRowsException invalidated() {
    return invalidated;
  }

  /** The position found elsewhere than expected, or null. */
  String fenced() {
    return fenced;
  }

  /** Where {@link #fenced()} was found. */
  OptionalLong fencedAt() {
    return fencedAt;
  }

  /** The snapshot that holds {@link #fencedAt()}. */
  long fencedVersion() {
    return fencedVersion;
  }

  /** {@code environment} publishing its snapshots through this guard, those of the write whose view is {@code deletionVectors}. */
  CatalogEnvironment around(CatalogEnvironment environment, BucketDeletionVectors deletionVectors) {
    return new Guarded(environment, this, deletionVectors);
  }

  /**
   * {@code snapshot} with the positions it must record, its parent's with the moves applied once.
   *
   * @throws PositionsMovedException a move does not find its partition where it expects it
   */
  private Snapshot withPositions(SnapshotManager snapshots, Snapshot snapshot) {
    if (fenced != null) {
      throw new PositionsMovedException("position " + fenced + " is not where this commit expects it");
    }
    long parentId = snapshot.id() - 1;
    if (!moved && changes != null) {
      try {
        changes.checkTags(snapshots.tablePath().toString(), parentId, version -> tagsOf(snapshots, version));
      } catch (MovedRowsException e) {
        invalidated = e;
        throw new PositionsMovedException(e.getMessage());
      }
    }
    Map<String, Long> found = parentId < Snapshot.FIRST_SNAPSHOT_ID || !snapshots.snapshotExists(parentId) ? Map.of()
        : SnapshotPositions.asOf(snapshots, snapshots.snapshot(parentId));
    Map<String, String> properties = new HashMap<>();
    if (snapshot.properties() != null) {
      snapshot.properties().forEach((key, value) -> {
        if (!key.startsWith(SnapshotPositions.PREFIX) && !key.startsWith(SnapshotPositions.TAG_PREFIX)) {
          properties.put(key, value);
        }
      });
    }
    Map<String, Long> positions = new HashMap<>(found);
    if (!moved) {
      for (Map.Entry<String, TxnChange> move : moves.entrySet()) {
        Long at = found.get(move.getKey());
        OptionalLong now = at == null ? OptionalLong.empty() : OptionalLong.of(at);
        if (!now.equals(move.getValue().expected())) {
          fenced = move.getKey();
          fencedAt = now;
          fencedVersion = parentId;
          throw new PositionsMovedException("position " + fenced + " is not where this commit expects it");
        }
        positions.put(move.getKey(), move.getValue().version());
      }
      tags.forEach((name, value) -> properties.put(SnapshotPositions.TAG_PREFIX + name, value));
    }
    positions.forEach((id, offset) -> properties.put(SnapshotPositions.PREFIX + id, Long.toString(offset)));
    return new Snapshot(snapshot.version(), snapshot.id(), snapshot.schemaId(), snapshot.baseManifestList(),
        snapshot.baseManifestListSize(), snapshot.deltaManifestList(), snapshot.deltaManifestListSize(),
        snapshot.changelogManifestList(), snapshot.changelogManifestListSize(), snapshot.indexManifest(), snapshot.commitUser(),
        snapshot.commitIdentifier(), snapshot.commitKind(), snapshot.timeMillis(), snapshot.totalRecordCount(),
        snapshot.deltaRecordCount(), snapshot.changelogRecordCount(), snapshot.watermark(), snapshot.statistics(),
        properties.isEmpty() ? null : properties, snapshot.nextRowId());
  }

  /** The commit tags snapshot {@code version} records; none when it is gone (expired) or records none. */
  static Map<String, String> tagsOf(SnapshotManager snapshots, long version) {
    if (!snapshots.snapshotExists(version) || snapshots.snapshot(version).properties() == null) {
      return Map.of();
    }
    Map<String, String> tags = new HashMap<>();
    snapshots.snapshot(version).properties().forEach((key, value) -> {
      if (key.startsWith(SnapshotPositions.TAG_PREFIX)) {
        tags.put(key.substring(SnapshotPositions.TAG_PREFIX.length()), value);
      }
    });
    return tags;
  }

  /** A move found its partition elsewhere, or the change set was decided on what changed since: the snapshot is not published. */
  static final class PositionsMovedException extends IllegalStateException {
    PositionsMovedException(String message) {
      super(message);
    }
  }

  /**
   * Publishes through the environment's own {@link SnapshotCommit}, after {@link #withPositions} and
   * the check of the deletion vectors of the buckets the commit compacts.
   */
  private record Publication(SnapshotCommit delegate, SnapshotManager snapshots, PositionGuard guard, BucketDeletionVectors deletionVectors)
      implements SnapshotCommit {
    @Override
    public boolean commit(Snapshot snapshot, String branch, List<PartitionStatistics> statistics) throws Exception {
      Snapshot positioned = guard.withPositions(snapshots, snapshot);
      deletionVectors.check(snapshots, snapshot);
      boolean published = delegate.commit(positioned, branch, statistics);
      if (published) {
        guard.moved = true;
        deletionVectors.published(snapshot);
      }
      return published;
    }

    @Override
    public void close() throws Exception {
      delegate.close();
    }
  }

  /** A table's catalog environment whose snapshots are published through the guard. */
  private static final class Guarded extends CatalogEnvironment {
    private static final long serialVersionUID = 1L;
    private final transient PositionGuard guard;
    private final transient BucketDeletionVectors deletionVectors;

    Guarded(CatalogEnvironment environment, PositionGuard guard, BucketDeletionVectors deletionVectors) {
      super(environment.identifier(), environment.uuid(), environment.catalogLoader(), environment.lockFactory(),
          environment.lockContext(), environment.catalogContext(), environment.supportsVersionManagement(), false);
      this.guard = guard;
      this.deletionVectors = deletionVectors;
    }

    @Override
    public SnapshotCommit snapshotCommit(SnapshotManager snapshots) {
      return new Publication(super.snapshotCommit(snapshots), snapshots, guard, deletionVectors);
    }
  }
}
