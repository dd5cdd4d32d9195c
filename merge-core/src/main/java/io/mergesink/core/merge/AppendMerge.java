package io.mergesink.core.merge;

import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lands a change set by appending every row: no key, no lookups, nothing read. An
 * {@link io.mergesink.core.data.Unchanged} marker becomes null, since an audit row has no previous version to keep.
 */
final class AppendMerge implements MergeOperation {
  static final String OPERATION = "WRITE";
  private final NewFiles newFiles;

  AppendMerge(NewFiles newFiles) {
    this.newFiles = newFiles;
  }

  @Override
  public PlannedMerge plan(Snapshot snapshot, KeyedChanges changes, Map<String, Long> txns) throws IOException {
    DataFileRoller roller = newFiles.roller(snapshot);
    try {
      for (Row row : changes.upserts()) {
        roller.write(UnchangedFiller.withNulls(row));
      }
      List<AddFile> added = roller.finish();
      List<Action> actions = new ArrayList<>(added);
      long bytes = added.stream().mapToLong(AddFile::size).sum();
      actions.addAll(TouchedFiles.txnActions(txns, System.currentTimeMillis()));
      MergeCounts counts = new MergeCounts(changes.upserts().size(), 0, added.size(), 0, 0, bytes);
      StagedCommit commit = new StagedCommit(actions, Set.of(), roller.writtenPaths(), OPERATION, counts.asOperationMetrics());
      return new PlannedMerge(commit, new io.mergesink.core.index.LiveRowIndex.IndexDelta(), counts);
    } catch (IOException | RuntimeException e) {
      roller.discard();
      throw e;
    }
  }
}
