package io.mergesink.core.writer;

import io.mergesink.core.commit.CommitHook;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.ownership.OwnerScope;
import io.mergesink.core.parquet.ParquetWriteOptions;
import java.util.Objects;

/**
 * How a {@link TableWriter} writes.
 *
 * @param strategy how change sets land in a keyed table (docs/design.md, "Merge strategies"); an
 *     append writer adds every row and does not apply it
 * @param parquet compression and page/row-group sizes of new data files
 * @param targetFileSizeBytes a new data file is closed once it reaches this size
 * @param checkpointInterval a checkpoint is written once this many commits followed the last one
 * @param scope the live files whose keys the writer indexes, asked anew for every snapshot it plans
 *     against; the rows of files in scope are the only ones it can replace
 * @param maxCommitAttempts commit attempts lost to concurrent writers before giving up
 * @param commitHook test seam in the commit path
 */
public record WriterOptions(
    MergeStrategy strategy,
    ParquetWriteOptions parquet,
    long targetFileSizeBytes,
    int checkpointInterval,
    OwnerScope scope,
    int maxCommitAttempts,
    CommitHook commitHook) {

  public static final long DEFAULT_TARGET_FILE_SIZE_BYTES = 128L * 1024 * 1024;
  public static final int DEFAULT_CHECKPOINT_INTERVAL = 10;
  public static final int DEFAULT_MAX_COMMIT_ATTEMPTS = 100;

  public WriterOptions {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(parquet, "parquet");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(commitHook, "commitHook");
    if (targetFileSizeBytes <= 0 || checkpointInterval <= 0 || maxCommitAttempts <= 0) {
      throw new IllegalArgumentException("targetFileSizeBytes, checkpointInterval and maxCommitAttempts must be positive");
    }
  }

  /** {@link #defaults(MergeStrategy)} with the default strategy, deletion vectors; for append writers, which apply none. */
  public static WriterOptions defaults() {
    return defaults(MergeStrategy.DELETION_VECTORS);
  }

  /**
   * Defaults: the given strategy, zstd, 128 MiB files, a checkpoint every 10 commits, every file
   * indexed.
   */
  public static WriterOptions defaults(MergeStrategy strategy) {
    return new WriterOptions(strategy, ParquetWriteOptions.defaults(), DEFAULT_TARGET_FILE_SIZE_BYTES, DEFAULT_CHECKPOINT_INTERVAL,
        OwnerScope.EVERY_FILE, DEFAULT_MAX_COMMIT_ATTEMPTS, CommitHook.NONE);
  }

  public WriterOptions withParquet(ParquetWriteOptions value) {
    return new WriterOptions(strategy, value, targetFileSizeBytes, checkpointInterval, scope, maxCommitAttempts, commitHook);
  }

  public WriterOptions withTargetFileSizeBytes(long value) {
    return new WriterOptions(strategy, parquet, value, checkpointInterval, scope, maxCommitAttempts, commitHook);
  }

  public WriterOptions withCheckpointInterval(int value) {
    return new WriterOptions(strategy, parquet, targetFileSizeBytes, value, scope, maxCommitAttempts, commitHook);
  }

  /** A writer that indexes the files {@code indexScope} covers (docs/design.md, "File ownership"). */
  public WriterOptions withScope(OwnerScope indexScope) {
    return new WriterOptions(strategy, parquet, targetFileSizeBytes, checkpointInterval, indexScope, maxCommitAttempts, commitHook);
  }

  public WriterOptions withMaxCommitAttempts(int value) {
    return new WriterOptions(strategy, parquet, targetFileSizeBytes, checkpointInterval, scope, value, commitHook);
  }

  public WriterOptions withCommitHook(CommitHook hook) {
    return new WriterOptions(strategy, parquet, targetFileSizeBytes, checkpointInterval, scope, maxCommitAttempts, hook);
  }
}
