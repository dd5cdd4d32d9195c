package io.mergesink.core.maintenance;

import io.mergesink.core.log.AddFile;
import io.mergesink.core.parquet.ParquetWriteOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What a compaction run rewrites and how much it may do (config {@code file.target.size.bytes} and
 * {@code compaction.*}, docs/configuration.md).
 *
 * @param targetFileSizeBytes files below this size are "small"; bins of small files are packed up
 *     to this many (estimated live) bytes, and output files roll over at it
 * @param minSmallFiles a group of files with the same partition and tags is bin-packed only once it
 *     holds at least this many small files
 * @param deletedRatio a file whose deleted fraction (DV cardinality / numRecords) exceeds this is
 *     rewritten without its deleted rows, whatever its size
 * @param maxBytesPerRun input bytes one run may rewrite; the first bin is always taken, so a run
 *     makes progress, further bins only while the total stays within this budget
 * @param maxFilesPerRun input files one run may rewrite (the first bin is always taken)
 * @param maxDuration no new bin is started once a run has taken this long; finished bins are committed
 * @param maxAttempts plan-rewrite-commit rounds before the run gives way to concurrent writers
 * @param scope the live files this compactor may touch (e.g. those tagged with the task's partitions)
 * @param parquet how output files are written
 */
public record CompactionOptions(
    long targetFileSizeBytes,
    int minSmallFiles,
    double deletedRatio,
    long maxBytesPerRun,
    int maxFilesPerRun,
    Duration maxDuration,
    int maxAttempts,
    Predicate<AddFile> scope,
    ParquetWriteOptions parquet) {

  /** 128 MiB, as {@code file.target.size.bytes}. */
  public static final long DEFAULT_TARGET_FILE_SIZE_BYTES = 128L * 1024 * 1024;
  public static final int DEFAULT_MIN_SMALL_FILES = 10;
  /** Delta's OPTIMIZE purges DVs above 25 % deleted rows. */
  public static final double DEFAULT_DELETED_RATIO = 0.25;
  /** 1 GiB of input per run. */
  public static final long DEFAULT_MAX_BYTES_PER_RUN = 1024L * 1024 * 1024;
  public static final int DEFAULT_MAX_FILES_PER_RUN = 10_000;
  public static final Duration DEFAULT_MAX_DURATION = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_ATTEMPTS = 3;

  public CompactionOptions {
    Objects.requireNonNull(maxDuration, "maxDuration");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(parquet, "parquet");
    if (targetFileSizeBytes <= 0 || minSmallFiles < 2 || maxBytesPerRun <= 0 || maxFilesPerRun < 1 || maxAttempts < 1) {
      throw new IllegalArgumentException("compaction options: expected targetFileSizeBytes > 0, minSmallFiles >= 2, maxBytesPerRun > 0, "
          + "maxFilesPerRun >= 1 and maxAttempts >= 1, found " + targetFileSizeBytes + ", " + minSmallFiles + ", " + maxBytesPerRun
          + ", " + maxFilesPerRun + ", " + maxAttempts);
    }
    if (!(deletedRatio >= 0 && deletedRatio < 1)) {
      throw new IllegalArgumentException("compaction.dv.ratio must be in [0, 1), found " + deletedRatio);
    }
    if (maxDuration.isNegative()) {
      throw new IllegalArgumentException("compaction max duration must not be negative, found " + maxDuration);
    }
  }

  /** The defaults above over every file of the table, written with zstd. */
  public static CompactionOptions defaults() {
    return new CompactionOptions(DEFAULT_TARGET_FILE_SIZE_BYTES, DEFAULT_MIN_SMALL_FILES, DEFAULT_DELETED_RATIO,
        DEFAULT_MAX_BYTES_PER_RUN, DEFAULT_MAX_FILES_PER_RUN, DEFAULT_MAX_DURATION, DEFAULT_MAX_ATTEMPTS, file -> true,
        ParquetWriteOptions.defaults());
  }

  public CompactionOptions withTargetFileSizeBytes(long value) {
    return new CompactionOptions(value, minSmallFiles, deletedRatio, maxBytesPerRun, maxFilesPerRun, maxDuration, maxAttempts, scope, parquet);
  }

  public CompactionOptions withMinSmallFiles(int value) {
    return new CompactionOptions(targetFileSizeBytes, value, deletedRatio, maxBytesPerRun, maxFilesPerRun, maxDuration, maxAttempts, scope,
        parquet);
  }

  public CompactionOptions withDeletedRatio(double value) {
    return new CompactionOptions(targetFileSizeBytes, minSmallFiles, value, maxBytesPerRun, maxFilesPerRun, maxDuration, maxAttempts, scope,
        parquet);
  }

  public CompactionOptions withBudget(long bytes, int files, Duration duration) {
    return new CompactionOptions(targetFileSizeBytes, minSmallFiles, deletedRatio, bytes, files, duration, maxAttempts, scope, parquet);
  }

  public CompactionOptions withMaxAttempts(int value) {
    return new CompactionOptions(targetFileSizeBytes, minSmallFiles, deletedRatio, maxBytesPerRun, maxFilesPerRun, maxDuration, value, scope,
        parquet);
  }

  public CompactionOptions withScope(Predicate<AddFile> value) {
    return new CompactionOptions(targetFileSizeBytes, minSmallFiles, deletedRatio, maxBytesPerRun, maxFilesPerRun, maxDuration, maxAttempts,
        value, parquet);
  }

  public CompactionOptions withParquet(ParquetWriteOptions value) {
    return new CompactionOptions(targetFileSizeBytes, minSmallFiles, deletedRatio, maxBytesPerRun, maxFilesPerRun, maxDuration, maxAttempts,
        scope, value);
  }
}
