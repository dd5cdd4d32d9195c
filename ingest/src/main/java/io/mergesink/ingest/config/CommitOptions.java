package io.mergesink.ingest.config;

import io.mergesink.ingest.options.LookupScope;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;

/** When buffered changes are committed to their tables, and what a task's key index covers. */
public final class CommitOptions {
  public static final String GROUP = "Commits and buffering";
  public static final String COMMIT_INTERVAL_MS = "commit.interval.ms";
  public static final Duration COMMIT_INTERVAL_DEFAULT = Duration.ofSeconds(30);
  public static final String BUFFER_MAX_RECORDS = "buffer.max.records";
  public static final long BUFFER_MAX_RECORDS_DEFAULT = 100_000L;
  public static final String BUFFER_MAX_BYTES = "buffer.max.bytes";
  public static final long MIB = 1024L * 1024L;
  public static final long BUFFER_MAX_BYTES_DEFAULT = 128 * MIB;
  public static final long BUFFER_MAX_BYTES_MIN = MIB;
  public static final String LOOKUP_SCOPE = "lookup.scope";
  public static final LookupScope LOOKUP_SCOPE_DEFAULT = LookupScope.PARTITION;
  public static final String INDEX_MEMORY_MAX_BYTES = "index.memory.max.bytes";
  /** {@value #INDEX_MEMORY_MAX_BYTES} of a quarter of the JVM's maximum heap. */
  public static final long INDEX_MEMORY_MAX_BYTES_AUTO = -1;
  public static final long INDEX_MEMORY_MAX_BYTES_DEFAULT = INDEX_MEMORY_MAX_BYTES_AUTO;
  public static final String FLUSH_COMMIT_THREADS = "flush.commit.threads";
  public static final int FLUSH_COMMIT_THREADS_DEFAULT = 4;
  public static final int FLUSH_COMMIT_THREADS_MAX = 64;
  public static final String FLUSH_PIPELINED = "flush.pipelined";
  public static final boolean FLUSH_PIPELINED_DEFAULT = false;

  private CommitOptions() {}

  static void define(ConfigDef def) {
    ConfigGroup commits = new ConfigGroup(def, GROUP);
    commits.option(COMMIT_INTERVAL_MS, Type.LONG).defaultValue(COMMIT_INTERVAL_DEFAULT.toMillis())
        .validator(Range.atLeast(0)).importance(Importance.HIGH).displayName("Commit interval (ms)")
        .doc("Longest time changes wait in the buffer before they are committed to their tables, in milliseconds; "
            + "0 commits after every batch of records. Each commit makes a Delta table version.")
        .define();
    commits.option(BUFFER_MAX_RECORDS, Type.LONG).defaultValue(BUFFER_MAX_RECORDS_DEFAULT)
        .validator(Range.atLeast(1)).importance(Importance.MEDIUM).displayName("Buffer max records")
        .doc("Commit early when a partition's buffer holds this many changes (after coalescing by key).")
        .define();
    commits.option(BUFFER_MAX_BYTES, Type.LONG).defaultValue(BUFFER_MAX_BYTES_DEFAULT)
        .validator(Range.atLeast(BUFFER_MAX_BYTES_MIN)).importance(Importance.MEDIUM).displayName("Buffer max bytes")
        .doc("Commit early when a partition's buffer holds about this many bytes of row data (an estimate of "
            + "heap use).")
        .define();
    commits.option(FLUSH_COMMIT_THREADS, Type.INT).defaultValue(FLUSH_COMMIT_THREADS_DEFAULT)
        .validator(Range.between(1, FLUSH_COMMIT_THREADS_MAX)).importance(Importance.LOW).displayName("Flush commit threads")
        .doc("How many tables a flush commits at once, each commit on a thread of the task's own pool; 1 commits them one "
            + "after the other on the task's thread. A flush of many small tables (one connector for a whole database) "
            + "costs about the time of its slowest commits rather than the sum of all; each commit in flight holds its "
            + "table's open data file (one Parquet row group at most).")
        .define();
    commits.option(FLUSH_PIPELINED, Type.BOOLEAN).defaultValue(FLUSH_PIPELINED_DEFAULT)
        .importance(Importance.LOW).displayName("Pipelined flush")
        .doc("Whether a flush commits on a thread of its own while the task goes on reading: records that come meanwhile "
            + "are decoded and routed, and held (at most the buffer limits per partition) until the commits land; a task "
            + "whose held records reach the limits waits for them. false commits on the task's thread, which reads nothing "
            + "meanwhile. Either way positions move only with the commits that hold them.")
        .define();
    commits.option(LOOKUP_SCOPE, Type.STRING).defaultValue(LOOKUP_SCOPE_DEFAULT.configName())
        .oneOf(LookupScope.class).importance(Importance.LOW).displayName("Key lookup scope")
        .doc("Which files a task's key index covers. partition: only files written for its own topic-partitions "
            + "(Debezium always sends a key to the same partition); when a topic gains partitions, the sink widens "
            + "the lookup for that topic to all its partitions by itself. table: every file, for topics whose keys may "
            + "move between partitions; costs more memory.")
        .define();
    commits.option(INDEX_MEMORY_MAX_BYTES, Type.LONG).defaultValue(INDEX_MEMORY_MAX_BYTES_DEFAULT)
        .validator(Range.atLeast(INDEX_MEMORY_MAX_BYTES_AUTO)).importance(Importance.LOW).displayName("Key index memory max bytes")
        .doc("The heap the key indexes of a task's tables may take together: over it, after a flush, the indexes of tables "
            + "the flush brought no changes to are dropped, those that took changes least recently first; such a table loads "
            + "its index again at its next commit of changes, reading the key columns of its files. Tables the flush brought "
            + "changes to keep theirs. -1: a quarter of the JVM's maximum heap; 0: no limit. A key takes about 28 bytes "
            + "(BIGINT), 30 plus its bytes otherwise.")
        .define();
  }
}
