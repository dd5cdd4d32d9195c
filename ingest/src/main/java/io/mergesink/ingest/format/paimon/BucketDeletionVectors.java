package io.mergesink.ingest.format.paimon;

import static org.apache.paimon.deletionvectors.DeletionVectorsIndexFile.DELETION_VECTORS_INDEX;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.operation.FileSystemWriteRestore;
import org.apache.paimon.operation.RestoreFiles;
import org.apache.paimon.operation.WriteRestore;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.utils.Pair;
import org.apache.paimon.utils.SnapshotManager;

/**
 * The deletion-vector index of each bucket as one write knows it, and the check that keeps the
 * write's compaction from undoing another writer's (docs/paimon.md, "Buckets, writers and
 * compaction between tasks").
 *
 * <p>Paimon keeps one deletion-vector index per bucket of a primary-key table. A compaction works
 * on the bucket as its write restored it: the vectors it marks are added to those it restored, and
 * its snapshot replaces the bucket's index whole; the files it rewrites are read through the
 * vectors it restored. Paimon expects one writer per bucket and checks conflicts on data files
 * only. When another task's compaction changed a bucket's vectors after this write restored the
 * bucket without deleting a data file this compaction rewrites (a compaction of deletes only
 * writes no file), publishing this one would drop the rows that compaction marked, or write them
 * again, and a row another task deleted or replaced would be read again. So this records the index
 * each bucket was restored with (a {@link WriteRestore} around Paimon's own), refuses the compaction
 * snapshot of a commit that compacts a bucket whose index in the parent is not the one the write
 * knows (the commit's rows, in its {@code APPEND} snapshot, land, and its writer compacts again), and
 * takes the index of each snapshot the write published as known. Not thread-safe: one write, one
 * commit at a time.
 */
final class BucketDeletionVectors implements WriteRestore {
  private final WriteRestore restore;
  private final IndexFileHandler indexFiles;
  /** Per bucket, the names of the deletion-vector index files the write's view of it holds. */
  private final Map<Pair<BinaryRow, Integer>, Set<String>> known = new HashMap<>();
  /** The buckets the armed commit compacts. */
  private Set<Pair<BinaryRow, Integer>> compacted = Set.of();

  /** A bucket's deletion vectors changed since the write restored it, and the commit compacts it. */
  static final class ChangedElsewhereException extends IllegalStateException {
    ChangedElsewhereException(String message) {
      super(message);
    }
  }

  /** The view of a write on {@code table}, restoring buckets as Paimon's writes do (from the latest snapshot). */
  BucketDeletionVectors(FileStoreTable table) {
    this.indexFiles = table.store().newIndexFileHandler();
    this.restore = new FileSystemWriteRestore(table.coreOptions(), table.snapshotManager(), table.store().newScan(), indexFiles);
  }

  @Override
  public long latestCommittedIdentifier(String user) {
    return restore.latestCommittedIdentifier(user);
  }

  @Override
  public RestoreFiles restoreFiles(BinaryRow partition, int bucket, boolean scanDynamicBucketIndex, boolean scanDeleteVectorsIndex) {
    RestoreFiles restored = restore.restoreFiles(partition, bucket, scanDynamicBucketIndex, scanDeleteVectorsIndex);
    Set<String> names = new HashSet<>();
    List<IndexFileMeta> index = restored.deleteVectorsIndex();
    if (index != null) {
      index.forEach(file -> names.add(file.fileName()));
    }
    known.put(Pair.of(partition.copy(), bucket), names);
    return restored;
  }

  /** Arms the check for one commit of {@code messages}: the buckets it compacts. */
  void arm(List<CommitMessage> messages) {
    Set<Pair<BinaryRow, Integer>> buckets = new HashSet<>();
    for (CommitMessage message : messages) {
      if (!((CommitMessageImpl) message).compactIncrement().isEmpty()) {
        buckets.add(Pair.of(message.partition(), message.bucket()));
      }
    }
    compacted = buckets;
  }

  /**
   * Checks {@code snapshot} of the armed commit before it is published, if it is the commit's
   * compaction.
   *
   * @throws ChangedElsewhereException its parent holds for a bucket the commit compacts another index than the write knows
   */
  void check(SnapshotManager snapshots, Snapshot snapshot) {
    // the APPEND snapshot of a commit adds level-0 files only: what its rows replace is found by the compaction's
    if (compacted.isEmpty() || snapshot.commitKind() != Snapshot.CommitKind.COMPACT) {
      return;
    }
    long parentId = snapshot.id() - 1;
    Snapshot parent = parentId < Snapshot.FIRST_SNAPSHOT_ID || !snapshots.snapshotExists(parentId) ? null : snapshots.snapshot(parentId);
    Map<Pair<BinaryRow, Integer>, Set<String>> before = byBucket(parent);
    for (Pair<BinaryRow, Integer> bucket : compacted) {
      Set<String> found = before.getOrDefault(bucket, Set.of());
      Set<String> expected = known.get(bucket);
      if (!found.equals(expected)) {
        throw new ChangedElsewhereException("snapshot " + snapshot.id() + " compacts bucket " + bucket.getRight() + ", whose deletion"
            + " vectors are index " + found + " in snapshot " + parentId + " and were " + (expected == null ? "not restored" : "index "
            + expected) + " when the write restored the bucket: another writer's compaction changed them since");
      }
    }
  }

  /** {@code snapshot} of the armed commit was published: the index its compaction gives the buckets it compacts is the one the write knows. */
  void published(Snapshot snapshot) {
    if (compacted.isEmpty() || snapshot.commitKind() != Snapshot.CommitKind.COMPACT) {
      return;
    }
    Map<Pair<BinaryRow, Integer>, Set<String>> after = byBucket(snapshot);
    for (Pair<BinaryRow, Integer> bucket : compacted) {
      known.put(bucket, after.getOrDefault(bucket, Set.of()));
    }
  }

  private Map<Pair<BinaryRow, Integer>, Set<String>> byBucket(Snapshot snapshot) {
    Map<Pair<BinaryRow, Integer>, Set<String>> index = new HashMap<>();
    if (snapshot == null) {
      return index;
    }
    for (IndexManifestEntry entry : indexFiles.scan(snapshot, DELETION_VECTORS_INDEX)) {
      index.computeIfAbsent(Pair.of(entry.partition(), entry.bucket()), bucket -> new HashSet<>()).add(entry.indexFile().fileName());
    }
    return index;
  }
}
