package io.mergesink.core.merge;

import io.mergesink.core.commit.StagedCommit;
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
 */
final class TruncateMerge implements MergeOperation {
  static final String OPERATION = "TRUNCATE";
  private final NewFiles newFiles;

  TruncateMerge(NewFiles newFiles) {
    this.newFiles = newFiles;
  }

  @Override
  public PlannedMerge plan(Snapshot snapshot, KeyedChanges changes) throws IOException {
    IndexDelta delta = IndexDelta.replacingAll();
    DataFileRoller roller = newFiles.roller(snapshot);
    try {
      for (int i = 0; i < changes.upserts().size(); i++) {
        roller.write(UnchangedFiller.withNulls(changes.upserts().get(i)));
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
      long bytes = added.stream().mapToLong(AddFile::size).sum();
      MergeCounts counts = new MergeCounts(changes.upserts().size(), removedRows, added.size(), snapshot.files().size(), 0, bytes);
      StagedCommit commit = new StagedCommit(actions, snapshot.files().keySet(), roller.writtenPaths(), OPERATION,
          counts.asOperationMetrics(), StagedCommit.Reads.WHOLE_TABLE);
      return new PlannedMerge(commit, delta, counts);
    } catch (IOException | RuntimeException e) {
      roller.discard();
      throw e;
    }
  }
}
