package io.mergesink.core.merge;

import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.datafiles.DataFileRoller;
import io.mergesink.core.datafiles.NewFiles;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.rowtracking.MaterializedColumns;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Lands a change set by copy-on-write: every touched file is rewritten without its replaced rows
 * (and without rows an earlier deletion vector removed), upserted rows go to new files, and one
 * commit removes the touched files and adds the new ones. Tables stay free of deletion vectors,
 * for readers that do not support them. A history table's appends go to the new files too. A table
 * with Change Data Feed gets the {@link ChangeFeed} of the commit too, the replaced rows taken from
 * the rewrites.
 *
 * <p>With row tracking, the rows a rewrite carries over keep their stable row ids and commit
 * versions, and an upserted row the row id of the row it replaces ({@link ReplacedRowIds}).
 *
 * <p>The rows a rewrite carries over keep their owners (docs/design.md, "File ownership"): a new file
 * holding survivors of a touched file is owned by that file's owners as well as the writer's, so
 * every writer that indexed the survivors before still finds them.
 */
public final class CopyOnWriteMerge implements MergeOperation {
  static final String OPERATION = "MERGE";
  private final Storage storage;
  private final LiveRowIndex index;
  private final NewFiles newFiles;
  private final int[] keyOrdinals;
  private final DeletionVectorStore deletionVectors;
  private final ChangeFeed changeFeed;

  public CopyOnWriteMerge(Storage storage, LiveRowIndex index, NewFiles newFiles, int[] keyOrdinals, ChangeFeed changeFeed) {
    this.storage = storage;
    this.index = index;
    this.newFiles = newFiles;
    this.keyOrdinals = keyOrdinals.clone();
    this.deletionVectors = new DeletionVectorStore(storage);
    this.changeFeed = changeFeed;
  }

  @Override
  public PlannedMerge plan(Snapshot snapshot, KeyedChanges changes) throws IOException {
    String root = snapshot.tableRoot();
    IndexDelta delta = new IndexDelta();
    TouchedRows touched = TouchedRows.lookup(index, snapshot, changes, delta);
    List<Row> upserts = changes.hasUnchangedValues()
        ? UnchangedFiller.fill(storage, snapshot, index, changes)
        : changes.upserts();
    Long[] keptRowIds = ReplacedRowIds.of(storage, snapshot, index, touched, upserts.size());
    DataFileRoller roller = newFiles.roller(snapshot, changes.source().owners());
    LogicalFileReader reader = LogicalFileReader.of(storage, snapshot, List.of());
    MaterializedColumns materialized = MaterializedColumns.of(snapshot.protocol(), snapshot.metadata()).orElse(null);
    try {
      List<Action> actions = new ArrayList<>();
      long now = System.currentTimeMillis();
      long copied = 0;
      // the rewrites read every replaced row anyway: the change feed takes them from there
      List<Row> replacedRows = ChangeFeed.enabled(snapshot) ? new ArrayList<>() : null;
      for (Map.Entry<String, Roaring64NavigableMap> file : touched.positionsByFile().entrySet()) {
        AddFile live = TouchedFiles.live(snapshot, file.getKey());
        copied += copySurvivors(root, reader, materialized, live, file.getValue(), roller, delta, replacedRows, touched);
        actions.add(live.toRemove(now, true));
        delta.fileState(live.path(), null);
      }
      for (int i = 0; i < upserts.size(); i++) {
        roller.write(upserts.get(i), keptRowIds[i], null);
        delta.replaceRow(changes.upsertKeys()[i], touched.replacedLocation(i), roller.lastPath(), roller.lastRowIndex());
      }
      for (Row closed : changes.appends()) {
        roller.write(closed); // history: live to no key, so the index does not hear of it
      }
      List<AddFile> added = roller.finish();
      long bytes = 0;
      for (AddFile file : added) {
        actions.add(file);
        delta.fileState(file.path(), file);
        bytes += file.size();
      }
      List<String> written = new ArrayList<>(roller.writtenPaths());
      if (replacedRows != null) {
        ChangeFeed.Written changeData = changeFeed.write(snapshot, replacedRows, upserts, changes.upsertKeys(), changes.appends());
        written.addAll(changeData.paths());
        actions.addAll(changeData.actions());
      }
      int removed = touched.positionsByFile().size();
      MergeCounts counts = new MergeCounts(upserts.size() + changes.appends().size() + copied, touched.rowCount(), added.size(), removed,
          0, bytes);
      StagedCommit commit = new StagedCommit(actions, touched.positionsByFile().keySet(), written, OPERATION,
          counts.asOperationMetrics());
      return new PlannedMerge(commit, delta, counts);
    } catch (IOException | RuntimeException e) {
      roller.discard();
      throw e;
    }
  }

  /**
   * Copies the rows of {@code live} that stay into the roller, which then owns them as {@code live} did; returns how many.
   * Adds the replaced rows to {@code replacedRows} unless it is null. With {@code materialized} row
   * tracking columns (else null), each copied row keeps its stable row id and commit version.
   */
  private long copySurvivors(String root, LogicalFileReader reader, MaterializedColumns materialized, AddFile live,
      Roaring64NavigableMap replaced, DataFileRoller roller, IndexDelta delta, List<Row> replacedRows, TouchedRows touched)
      throws IOException {
    Roaring64NavigableMap gone = TouchedFiles.deletedRows(deletionVectors, root, live);
    if (touched.removesByPosition(live.path())) {
      touched.checkRemovable(root, live.path(), gone, TouchedFiles.physicalRows(storage, root, live));
    }
    gone.or(replaced);
    // a history table's closed versions are carried over too, but stay out of the index as they were
    int flag = index.currentColumn().map(reader.schema()::indexOf).orElse(-1);
    long copied = 0;
    try (CloseableIterator<Row> rows = reader.read(live);
        CloseableIterator<Row> stored = materialized == null ? null : reader.readHidden(live, materialized.schema())) {
      long rowIndex = 0;
      while (rows.hasNext()) {
        Row row = rows.next();
        Row tracking = stored == null ? null : stored.next();
        if (!gone.contains(rowIndex)) {
          if (copied == 0) {
            roller.carryRowsOf(FileOwners.of(live));
          }
          if (tracking == null) {
            roller.write(row);
          } else {
            roller.write(row, MaterializedColumns.stableRowId((Long) tracking.get(0), live, rowIndex),
                MaterializedColumns.stableCommitVersion((Long) tracking.get(1), live));
          }
          if (flag < 0 || CurrentRowColumn.isCurrent(row.get(flag))) {
            delta.replaceRow(row.project(keyOrdinals), index.location(live.path(), rowIndex), roller.lastPath(), roller.lastRowIndex());
          }
          copied++;
        } else if (replacedRows != null && replaced.contains(rowIndex)) {
          replacedRows.add(row);
        }
        rowIndex++;
      }
    }
    return copied;
  }
}
