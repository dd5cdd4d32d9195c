package io.mergesink.core.merge;

import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.data.Row;
import io.mergesink.core.datafiles.Cleanup;
import io.mergesink.core.datafiles.DataFileRoller;
import io.mergesink.core.datafiles.FileStats;
import io.mergesink.core.datafiles.NewFiles;
import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.index.LiveRowIndex;
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
 * every row is deleted is removed instead. With row tracking, an upserted row keeps the row id of
 * the row it replaces ({@link ReplacedRowIds}). A history table's appends go to the new files too. A
 * table with Change Data Feed gets the {@link ChangeFeed} of the commit too, the replaced rows read
 * back by position.
 */
public final class DeletionVectorMerge implements MergeOperation {
  static final String OPERATION = "MERGE";
  private final Storage storage;
  private final LiveRowIndex index;
  private final NewFiles newFiles;
  private final DeletionVectorStore deletionVectors;
  private final ChangeFeed changeFeed;
  /**
   * The files the last plan marked, by the id of the DV it wrote for each: the next commit mostly
   * touches the same files, whose current DVs are these, so it need not read them back.
   */
  private Map<String, Marking> lastWritten = Map.of();

  public DeletionVectorMerge(Storage storage, LiveRowIndex index, NewFiles newFiles, ChangeFeed changeFeed) {
    this.storage = storage;
    this.index = index;
    this.newFiles = newFiles;
    this.deletionVectors = new DeletionVectorStore(storage);
    this.changeFeed = changeFeed;
  }

  @Override
  public PlannedMerge plan(Snapshot snapshot, KeyedChanges changes) throws IOException {
    String root = snapshot.tableRoot();
    // This plan takes the last plan's markings over and changes their bitmaps in place; whatever
    // happens to it, no later plan sees them again (a plan that fails leaves no markings behind).
    Map<String, Marking> known = lastWritten;
    lastWritten = Map.of();
    IndexDelta delta = new IndexDelta(changes.upserts().size());
    TouchedRows touched = TouchedRows.lookup(index, snapshot, changes, delta);
    List<Row> upserts = changes.hasUnchangedValues()
        ? UnchangedFiller.fill(storage, snapshot, index, changes)
        : changes.upserts();
    Long[] keptRowIds = ReplacedRowIds.of(storage, snapshot, index, touched, upserts.size());
    DataFileRoller roller = newFiles.roller(snapshot, changes.source().owners());
    List<String> written = new ArrayList<>();
    try {
      for (int i = 0; i < upserts.size(); i++) {
        roller.write(upserts.get(i), keptRowIds[i], null);
        delta.replaceRow(changes.upsertKeys()[i], touched.replacedLocation(i), roller.lastPath(), roller.lastRowIndex());
      }
      for (Row closed : changes.appends()) {
        roller.write(closed); // history: live to no key, so the index does not hear of it
      }
      List<AddFile> added = roller.finish();
      written.addAll(roller.writtenPaths());
      List<Action> actions = new ArrayList<>();
      long now = System.currentTimeMillis();
      long bytes = 0;
      int removedFiles = 0;
      List<Marking> marked = new ArrayList<>();
      for (Map.Entry<String, Roaring64NavigableMap> file : touched.positionsByFile().entrySet()) {
        Marking marking = mark(root, TouchedFiles.live(snapshot, file.getKey()), file.getValue(), known, touched);
        if (marking.deletesEveryRow()) {
          actions.add(marking.live().toRemove(now, true));
          delta.fileState(marking.live().path(), null);
          removedFiles++;
        } else {
          marked.add(marking);
        }
      }
      DeletionVectorStore.Written dvs = deletionVectors.write(root, marked.stream().map(Marking::deleted).toList(),
          DeletionVectorStore.maxInlineBytes(snapshot.metadata().configuration()));
      dvs.file().ifPresent(written::add);
      List<DeletionVectorDescriptor> descriptors = dvs.descriptors();
      Map<String, Marking> writtenMarkings = new HashMap<>();
      for (int i = 0; i < marked.size(); i++) {
        Marking marking = marked.get(i);
        writtenMarkings.put(descriptors.get(i).uniqueId(), marking);
        AddFile remarked = marking.live().withDeletionVector(descriptors.get(i), marking.looseStats());
        actions.add(marking.live().toRemove(now, true));
        actions.add(remarked);
        delta.fileState(remarked.path(), remarked);
        bytes += descriptors.get(i).sizeInBytes();
      }
      for (AddFile file : added) {
        actions.add(file);
        delta.fileState(file.path(), file);
        bytes += file.size();
      }
      if (ChangeFeed.enabled(snapshot)) {
        ChangeFeed.Written changeData = changeFeed.write(snapshot, touched, upserts, changes.upsertKeys(), changes.appends());
        written.addAll(changeData.paths());
        actions.addAll(changeData.actions());
      }
      lastWritten = writtenMarkings;
      MergeCounts counts = new MergeCounts(upserts.size() + changes.appends().size(), touched.rowCount(), added.size(), removedFiles,
          marked.size(), bytes);
      StagedCommit commit = new StagedCommit(actions, touched.positionsByFile().keySet(), written, OPERATION, counts.asOperationMetrics());
      return new PlannedMerge(commit, delta, counts);
    } catch (IOException | RuntimeException e) {
      roller.discard();
      Cleanup.deleteQuietly(storage, written);
      throw e;
    }
  }

  /**
   * The new deletions of {@code live}: its current DV's rows and {@code replaced}. A file whose DV
   * the last plan wrote is known from then: its bitmap, its row count and its stats, which that
   * plan already loosened.
   */
  private Marking mark(String root, AddFile live, Roaring64NavigableMap replaced, Map<String, Marking> known, TouchedRows touched)
      throws IOException {
    Marking last = live.deletionVector() == null ? null : known.get(live.deletionVector().uniqueId());
    if (last == null) {
      Roaring64NavigableMap deleted = TouchedFiles.deletedRows(deletionVectors, root, live);
      long physicalRows = TouchedFiles.physicalRows(storage, root, live);
      touched.checkRemovable(root, live.path(), deleted, physicalRows);
      deleted.or(replaced);
      return new Marking(live, deleted, physicalRows, FileStats.withLooseBounds(live.stats()));
    }
    touched.checkRemovable(root, live.path(), last.deleted(), last.physicalRows());
    last.deleted().or(replaced);
    return new Marking(live, last.deleted(), last.physicalRows(), live.stats());
  }

  /**
   * A touched file and the rows its new DV deletes.
   *
   * @param physicalRows rows in the data file, deleted ones included
   * @param looseStats the file's stats with {@code tightBounds=false}, for its new {@code add}
   */
  private record Marking(AddFile live, Roaring64NavigableMap deleted, long physicalRows, String looseStats) {
    boolean deletesEveryRow() {
      return deleted.getLongCardinality() >= physicalRows;
    }
  }
}
