package io.mergesink.ingest.testing;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;

/**
 * Where a test's changes land, for tests that run one scenario on every format: Delta tables under
 * either strategy, or Iceberg tables (deletion vectors); read back with {@link #format}'s reader.
 */
public enum Landing {
  DELETION_VECTORS(SinkTables.DELTA, MergeStrategy.DELETION_VECTORS),
  COPY_ON_WRITE(SinkTables.DELTA, MergeStrategy.COPY_ON_WRITE),
  ICEBERG(SinkTables.ICEBERG, MergeStrategy.DELETION_VECTORS);

  public final SinkTables format;
  public final MergeStrategy strategy;

  Landing(SinkTables format, MergeStrategy strategy) {
    this.format = format;
    this.strategy = strategy;
  }

  /** {@code options} writing this landing's format with its strategy. */
  public IngestOptions.Builder apply(IngestOptions.Builder options) {
    return options.mergeStrategy(strategy).tableFormat(format == SinkTables.ICEBERG ? TableFormatName.ICEBERG : TableFormatName.DELTA);
  }
}
