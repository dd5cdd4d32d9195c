package io.mergesink.core.merge;

import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.data.Row;
import io.mergesink.core.datafiles.DataFileRoller;
import io.mergesink.core.datafiles.NewFiles;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Lands a truncating change set: every live file is removed and the upserts become the table's
 * only rows (an unchanged column has no previous value left: null). Deletes have nothing to delete.
 * In a table with Change Data Feed every live row is a {@code delete} and every upsert an
 * {@code insert}, as Delta records a truncate.
 */
public final class TruncateMerge implements MergeOperation {
  static final String OPERATION = "TRUNCATE";
  private final NewFiles newFiles;
  private final ChangeFeed changeFeed;

  public TruncateMerge(NewFiles newFiles, ChangeFeed changeFeed) {
    this.newFiles = newFiles;
    this.changeFeed = changeFeed;
  }

  @Override
  public PlannedMerge plan(Snapshot snapshot, KeyedChanges changes) throws IOException {
    IndexDelta delta = IndexDelta.replacingAll();
    DataFileRoller roller = newFiles.roller(snapshot, changes.source().owners());
    List<Row> inserted = new ArrayList<>(changes.upserts().size());
    try {
      for (int i = 0; i < changes.upserts().size(); i++) {
        Row row = UnchangedFiller.withNulls(changes.upserts().get(i));
        inserted.add(row);
        roller.write(row);
        if (changes.upsertKeys().length > 0) {
          delta.addRow(changes.upsertKeys()[i], roller.lastPath(), roller.lastRowIndex());
        }
      }
      List<AddFile> added = roller.finish();
      long now = System.currentTimeMillis();
      List<Action> actions = new ArrayList<>();
      long removedRows = 0;
      for (AddFile live : snapshot.files().values()) {
        actions.add(live.toRemove(now, true));
        removedRows += Math.max(0, live.numRecords() - live.deletedRecords());
      }
      for (AddFile file : added) {
        actions.add(file);
        delta.fileState(file.path(), file);
      }
      List<String> written = new ArrayList<>(roller.writtenPaths());
      if (ChangeFeed.enabled(snapshot)) {
        ChangeFeed.Written changeData = changeFeed.writeTruncate(snapshot, inserted);
        written.addAll(changeData.paths());
        actions.addAll(changeData.actions());
      }
      long bytes = added.stream().mapToLong(AddFile::size).sum();
      MergeCounts counts = new MergeCounts(changes.upserts().size(), removedRows, added.size(), snapshot.files().size(), 0, bytes);
      StagedCommit commit = new StagedCommit(actions, snapshot.files().keySet(), written, OPERATION,
          counts.asOperationMetrics(), StagedCommit.Reads.WHOLE_TABLE);
      return new PlannedMerge(commit, delta, counts);
    } catch (IOException | RuntimeException e) {
      roller.discard();
      throw e;
    }
  }
}
