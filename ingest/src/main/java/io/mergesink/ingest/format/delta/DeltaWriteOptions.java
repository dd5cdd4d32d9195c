package io.mergesink.ingest.format.delta;

import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.writer.WriterOptions;
import io.mergesink.ingest.config.IngestOptions;

/** The engine's file and maintenance options as the Delta writer and compactor take them. */
final class DeltaWriteOptions {
  private DeltaWriteOptions() {}

  /** How new data files are written. */
  static ParquetWriteOptions parquet(IngestOptions options) {
    return ParquetWriteOptions.defaults().withCompression(options.parquetCompression().configName());
  }

  /** Writer options before the owners and key-index scope of a task's partitions are set; append writers do not apply their strategy. */
  static WriterOptions writer(IngestOptions options) {
    return WriterOptions.defaults(options.mergeStrategy())
        .withParquet(parquet(options))
        .withTargetFileSizeBytes(options.fileTargetSizeBytes())
        .withCheckpointInterval(options.checkpointInterval());
  }

  /** What a compaction run rewrites, before its scope and budget are set. */
  static CompactionOptions compaction(IngestOptions options) {
    return CompactionOptions.defaults()
        .withTargetFileSizeBytes(options.fileTargetSizeBytes())
        .withMinSmallFiles(options.compactionMinSmallFiles())
        .withDeletedRatio(options.compactionDeletedRatio())
        .withParquet(parquet(options));
  }
}
