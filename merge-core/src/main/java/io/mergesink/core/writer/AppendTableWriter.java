package io.mergesink.core.writer;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.changes.RowValidator;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.data.Row;
import io.mergesink.core.datafiles.DataFileRoller;
import io.mergesink.core.datafiles.NewFiles;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.merge.MergeCounts;
import io.mergesink.core.merge.PlannedMerge;
import io.mergesink.core.merge.UnchangedFiller;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@link TableWriter} of append tables (docs/design.md, "Append tables"): every row of a change
 * set becomes a new row in new files; nothing is looked up, replaced or deleted, so the writer keeps
 * no key index and a commit reads no file (concurrent commits never make it plan again, except a
 * schema change). An {@link io.mergesink.core.data.Unchanged} marker becomes null: an audit row has
 * no previous version to keep. Commits go through the same {@link TableCommits} as the merging writer's.
 */
public final class AppendTableWriter implements TableWriter, TableCommits.Plans {
  static final String OPERATION = "WRITE";

  private final NewFiles newFiles;
  private final TableCommits commits;

  private AppendTableWriter(Storage storage, SnapshotLoader loader, Snapshot snapshot, WriterOptions options) {
    this.newFiles = new NewFiles(storage, snapshot.tableRoot(), options.parquet(), options.targetFileSizeBytes());
    this.commits = new TableCommits(storage, loader, snapshot, options);
  }

  /** Opens a writer on {@code snapshot}. */
  public static AppendTableWriter open(Storage storage, SnapshotLoader loader, Snapshot snapshot, WriterOptions options) {
    return new AppendTableWriter(storage, loader, snapshot, options);
  }

  /**
   * Appends the upserts of {@code changes} and records their txns in one commit.
   *
   * @throws InvalidChangeSetException the change set deletes or truncates, or a row does not fit the table
   */
  @Override
  public CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    if (!changes.deletes().isEmpty() || !changes.appends().isEmpty() || !changes.removals().isEmpty() || changes.truncate()) {
      throw new InvalidChangeSetException(commits.snapshot().tableRoot(), "an append table takes rows only, found "
          + changes.deletes().size() + " deletes, " + changes.appends().size() + " history appends, " + changes.removals().size()
          + " removals by position" + (changes.truncate() ? " and a truncate" : ""));
    }
    return commits.commit(changes, this);
  }

  @Override
  public Snapshot snapshot() {
    return commits.snapshot();
  }

  @Override
  public Snapshot refresh() throws IOException {
    return commits.refresh(this);
  }

  @Override
  public PlannedMerge plan(Snapshot snapshot, ChangeSet changes) throws IOException {
    for (Row row : changes.upserts()) {
      String problem = RowValidator.problem(snapshot.schema(), row, true);
      if (problem != null) {
        throw new InvalidChangeSetException(snapshot.tableRoot(), "row " + row + ": " + problem);
      }
    }
    DataFileRoller roller = newFiles.roller(snapshot, changes.owners());
    try {
      for (Row row : changes.upserts()) {
        roller.write(UnchangedFiller.withNulls(row));
      }
      List<AddFile> added = roller.finish();
      long bytes = added.stream().mapToLong(AddFile::size).sum();
      MergeCounts counts = new MergeCounts(changes.upserts().size(), 0, added.size(), 0, 0, bytes);
      StagedCommit commit = new StagedCommit(new ArrayList<Action>(added), Set.of(), roller.writtenPaths(), OPERATION,
          counts.asOperationMetrics());
      return new PlannedMerge(commit, new IndexDelta(), counts);
    } catch (IOException | RuntimeException e) {
      roller.discard();
      throw e;
    }
  }

  @Override
  public void moved(Snapshot snapshot) {
    // nothing derived from the table: rows are only ever added
  }

  @Override
  public void landed(PlannedMerge planned) {
    // likewise
  }
}
