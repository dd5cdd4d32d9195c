package io.mergesink.core.merge;

import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Lands a change set by deletion-vector marking: the replaced rows' positions join each touched
 * file's deletion vector (union with its current one), upserted rows go to new files, and one
 * commit holds a remove/add pair per touched file, an add per new file, and the txns. A file whose
 * every row is deleted is removed instead.
 */
final class DeletionVectorMerge implements MergeOperation {
  static final String OPERATION = "MERGE";
  private final Storage storage;
  private final LiveRowIndex index;
  private final NewFiles newFiles;
  private final DeletionVectorStore deletionVectors;
  /**
   * The bitmaps of the DVs the last plan wrote, by DV id: the next commit mostly touches the same
   * files, whose current DVs are these, so it need not read them back.
   */
  private Map<String, Roaring64NavigableMap> lastWritten = Map.of();

  DeletionVectorMerge(Storage storage, LiveRowIndex index, NewFiles newFiles) {
    this.storage = storage;
    this.index = index;
    this.newFiles = newFiles;
    this.deletionVectors = new DeletionVectorStore(storage);
  }

  @Override
  public PlannedMerge plan(Snapshot snapshot, KeyedChanges changes, Map<String, Long> txns) throws IOException {
    String root = snapshot.tableRoot();
    IndexDelta delta = new IndexDelta();
    TouchedRows touched = TouchedRows.lookup(index, changes, delta);
    List<Row> upserts = changes.hasUnchangedValues()
        ? UnchangedFiller.fill(storage, root, snapshot.schema(), index, changes)
        : changes.upserts();
    DataFileRoller roller = newFiles.roller(snapshot.schema());
    List<String> written = new ArrayList<>();
    try {
      for (int i = 0; i < upserts.size(); i++) {
        roller.write(upserts.get(i));
        delta.replaceRow(changes.upsertKeys()[i], touched.replacedLocation(i), roller.lastPath(), roller.lastRowIndex());
      }
      List<AddFile> added = roller.finish();
      written.addAll(roller.writtenPaths());
      List<Action> actions = new ArrayList<>();
      long now = System.currentTimeMillis();
      long bytes = 0;
      int removedFiles = 0;
      List<AddFile> marked = new ArrayList<>();
      List<Roaring64NavigableMap> bitmaps = new ArrayList<>();
      for (Map.Entry<String, Roaring64NavigableMap> file : touched.positionsByFile().entrySet()) {
        AddFile live = TouchedFiles.live(snapshot, file.getKey());
        Roaring64NavigableMap deleted = currentDeletions(root, live);
        deleted.or(file.getValue());
        if (deleted.getLongCardinality() >= TouchedFiles.physicalRows(storage, root, live)) {
          actions.add(live.toRemove(now, true));
          delta.fileState(live.path(), null);
          removedFiles++;
        } else {
          marked.add(live);
          bitmaps.add(deleted);
        }
      }
      List<DeletionVectorDescriptor> descriptors = deletionVectors.write(root, bitmaps);
      if (!descriptors.isEmpty()) {
        written.add(DeletionVectorStore.absolutePath(root, descriptors.get(0)));
      }
      Map<String, Roaring64NavigableMap> writtenBitmaps = new HashMap<>();
      for (int i = 0; i < marked.size(); i++) {
        writtenBitmaps.put(descriptors.get(i).uniqueId(), bitmaps.get(i));
        AddFile live = marked.get(i);
        AddFile remarked = live.withDeletionVector(descriptors.get(i), FileStats.withLooseBounds(live.stats()));
        actions.add(live.toRemove(now, true));
        actions.add(remarked);
        delta.fileState(live.path(), remarked);
        bytes += descriptors.get(i).sizeInBytes();
      }
      for (AddFile file : added) {
        actions.add(file);
        delta.fileState(file.path(), file);
        bytes += file.size();
      }
      actions.addAll(TouchedFiles.txnActions(txns, now));
      lastWritten = writtenBitmaps;
      MergeCounts counts = new MergeCounts(upserts.size(), touched.rowCount(), added.size(), removedFiles, marked.size(), bytes);
      StagedCommit commit = new StagedCommit(actions, touched.positionsByFile().keySet(), written, OPERATION, counts.asOperationMetrics());
      return new PlannedMerge(commit, delta, counts);
    } catch (IOException | RuntimeException e) {
      roller.discard();
      Cleanup.deleteQuietly(storage, written);
      throw e;
    }
  }

  /** A copy of the rows the file's current DV deletes (empty without DV), from the last plan's DVs where possible. */
  private Roaring64NavigableMap currentDeletions(String root, AddFile live) throws IOException {
    Roaring64NavigableMap known = live.deletionVector() == null ? null : lastWritten.get(live.deletionVector().uniqueId());
    if (known == null) {
      return TouchedFiles.deletedRows(deletionVectors, root, live);
    }
    Roaring64NavigableMap copy = new Roaring64NavigableMap();
    copy.or(known);
    return copy;
  }
}
