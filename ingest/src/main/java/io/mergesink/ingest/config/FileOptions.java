package io.mergesink.ingest.config;

import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.writer.WriterOptions;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;

/**
 * How data files are written, how often the log is checkpointed, and how tables are compacted. The
 * defaults are merge-core's (its writers and compactor use them when nobody configures them).
 */
public final class FileOptions {
  public static final String GROUP = "Files and maintenance";
  public static final String PARQUET_COMPRESSION = "parquet.compression";
  public static final ParquetCompression PARQUET_COMPRESSION_DEFAULT = ParquetCompression.ZSTD;
  public static final String FILE_TARGET_SIZE_BYTES = "file.target.size.bytes";
  public static final long FILE_TARGET_SIZE_BYTES_DEFAULT = WriterOptions.DEFAULT_TARGET_FILE_SIZE_BYTES;
  public static final long FILE_TARGET_SIZE_BYTES_MIN = 1024L;
  public static final String CHECKPOINT_INTERVAL = "checkpoint.interval";
  public static final int CHECKPOINT_INTERVAL_DEFAULT = WriterOptions.DEFAULT_CHECKPOINT_INTERVAL;
  public static final String COMPACTION_ENABLED = "compaction.enabled";
  public static final boolean COMPACTION_ENABLED_DEFAULT = true;
  public static final String COMPACTION_DV_RATIO = "compaction.dv.ratio";
  public static final double COMPACTION_DV_RATIO_DEFAULT = CompactionOptions.DEFAULT_DELETED_RATIO;
  public static final String COMPACTION_MIN_FILES = "compaction.min.files";
  public static final int COMPACTION_MIN_FILES_DEFAULT = CompactionOptions.DEFAULT_MIN_SMALL_FILES;

  private FileOptions() {}

  static void define(ConfigDef def) {
    ConfigGroup files = new ConfigGroup(def, GROUP);
    files.option(PARQUET_COMPRESSION, Type.STRING).defaultValue(PARQUET_COMPRESSION_DEFAULT.configName())
        .oneOf(ParquetCompression.class).importance(Importance.LOW).displayName("Parquet compression")
        .doc("Compression codec of written Parquet data files.")
        .define();
    files.option(FILE_TARGET_SIZE_BYTES, Type.LONG).defaultValue(FILE_TARGET_SIZE_BYTES_DEFAULT)
        .validator(Range.atLeast(FILE_TARGET_SIZE_BYTES_MIN)).importance(Importance.LOW)
        .displayName("Target file size (bytes)")
        .doc("A data file is closed and a new one started when it reaches about this size; also the size "
            + "compaction aims for.")
        .define();
    files.option(CHECKPOINT_INTERVAL, Type.INT).defaultValue(CHECKPOINT_INTERVAL_DEFAULT)
        .validator(Range.atLeast(1)).importance(Importance.LOW).displayName("Checkpoint interval")
        .doc("Write a Delta checkpoint every this many commits, so opening a table reads the checkpoint and a "
            + "short log tail instead of the whole history.")
        .define();
    files.option(COMPACTION_ENABLED, Type.BOOLEAN).defaultValue(COMPACTION_ENABLED_DEFAULT).importance(Importance.LOW)
        .displayName("Compaction enabled")
        .doc("Whether the connector compacts the tables it writes after commits: rewrites files whose deletion "
            + "vectors hide more than " + COMPACTION_DV_RATIO + " of their rows, and merges small files once there "
            + "are " + COMPACTION_MIN_FILES + " of them.")
        .define();
    files.option(COMPACTION_DV_RATIO, Type.DOUBLE).defaultValue(COMPACTION_DV_RATIO_DEFAULT)
        .validator(Range.between(0.0, 1.0)).importance(Importance.LOW).displayName("Compaction deleted-row ratio")
        .doc("A file whose deletion vector hides more than this fraction of its rows is rewritten without them.")
        .define();
    files.option(COMPACTION_MIN_FILES, Type.INT).defaultValue(COMPACTION_MIN_FILES_DEFAULT)
        .validator(Range.atLeast(2)).importance(Importance.LOW).displayName("Compaction min small files")
        .doc("Small files (under half of " + FILE_TARGET_SIZE_BYTES + ") are merged once a table has at least this "
            + "many.")
        .define();
  }
}
