package io.mergesink.core.merge;

import io.mergesink.core.commit.CommitHook;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.parquet.ParquetWriteOptions;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * How a {@link TableWriter} writes.
 *
 * @param strategy how change sets land (docs/design.md, "Merge strategies")
 * @param parquet compression and page/row-group sizes of new data files
 * @param targetFileSizeBytes a new data file is closed once it reaches this size
 * @param checkpointInterval a checkpoint is written once this many commits followed the last one
 * @param fileTags the {@code tags} of every file this writer adds (e.g. the Kafka partitions it serves)
 * @param indexScope the live files whose keys the writer indexes; files it did not write in scope
 *     are the only ones whose rows it can replace (docs/design.md, "File ownership")
 * @param maxCommitAttempts commit attempts lost to concurrent writers before giving up
 * @param commitHook test seam in the commit path
 */
public record WriterOptions(
    MergeStrategy strategy,
    ParquetWriteOptions parquet,
    long targetFileSizeBytes,
    int checkpointInterval,
    Map<String, String> fileTags,
    Predicate<AddFile> indexScope,
    int maxCommitAttempts,
    CommitHook commitHook) {

  public static final long DEFAULT_TARGET_FILE_SIZE_BYTES = 128L * 1024 * 1024;
  public static final int DEFAULT_CHECKPOINT_INTERVAL = 10;
  public static final int DEFAULT_MAX_COMMIT_ATTEMPTS = 100;

  public WriterOptions {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(parquet, "parquet");
    Objects.requireNonNull(indexScope, "indexScope");
    Objects.requireNonNull(commitHook, "commitHook");
    fileTags = Map.copyOf(fileTags);
    if (targetFileSizeBytes <= 0 || checkpointInterval <= 0 || maxCommitAttempts <= 0) {
      throw new IllegalArgumentException("targetFileSizeBytes, checkpointInterval and maxCommitAttempts must be positive");
    }
  }

  /** Defaults: the given strategy, zstd, 128 MiB files, a checkpoint every 10 commits, every file indexed. */
  public static WriterOptions defaults(MergeStrategy strategy) {
    return new WriterOptions(strategy, ParquetWriteOptions.defaults(), DEFAULT_TARGET_FILE_SIZE_BYTES, DEFAULT_CHECKPOINT_INTERVAL,
        Map.of(), file -> true, DEFAULT_MAX_COMMIT_ATTEMPTS, CommitHook.NONE);
  }

  public WriterOptions withParquet(ParquetWriteOptions value) {
    return new WriterOptions(strategy, value, targetFileSizeBytes, checkpointInterval, fileTags, indexScope, maxCommitAttempts, commitHook);
  }

  public WriterOptions withTargetFileSizeBytes(long value) {
    return new WriterOptions(strategy, parquet, value, checkpointInterval, fileTags, indexScope, maxCommitAttempts, commitHook);
  }

  public WriterOptions withCheckpointInterval(int value) {
    return new WriterOptions(strategy, parquet, targetFileSizeBytes, value, fileTags, indexScope, maxCommitAttempts, commitHook);
  }

  public WriterOptions withFileTags(Map<String, String> tags, Predicate<AddFile> scope) {
    return new WriterOptions(strategy, parquet, targetFileSizeBytes, checkpointInterval, tags, scope, maxCommitAttempts, commitHook);
  }

  public WriterOptions withMaxCommitAttempts(int value) {
    return new WriterOptions(strategy, parquet, targetFileSizeBytes, checkpointInterval, fileTags, indexScope, value, commitHook);
  }

  public WriterOptions withCommitHook(CommitHook hook) {
    return new WriterOptions(strategy, parquet, targetFileSizeBytes, checkpointInterval, fileTags, indexScope, maxCommitAttempts, hook);
  }
}
