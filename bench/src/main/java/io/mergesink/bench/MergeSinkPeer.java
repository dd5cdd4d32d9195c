package io.mergesink.bench;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.ingest.config.CommitOptions;
import io.mergesink.ingest.config.TableOptions;
import io.mergesink.ingest.config.WriteOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * MergeSink in the peers suite: upserts with deletion vectors (the table holds the latest row per
 * key, as the JDBC sink's does) or appends (every record a row, as the Iceberg sink's), read with
 * JsonConverter or with its own {@code DebeziumJsonConverter}. Configured as in the e2e suite.
 */
final class MergeSinkPeer implements Peer {
  private static final int PARTITIONS = PeersBenchmark.PARTITIONS;

  private final String writeMode;
  private final RecordFormat format;
  private final Path directory;
  private final long commitIntervalMs;
  private final TableSpec upsertSpec;
  /** {@code flush.pipelined}: whether commits run beside the task's reading. */
  private final boolean pipelined;

  /**
   * @param writeMode {@code upsert} or {@code append}
   * @param upsertSpec the spec of the table the connector creates for this stream in upsert mode
   *     (preloaded tables get it)
   */
  MergeSinkPeer(String writeMode, RecordFormat format, Path directory, long commitIntervalMs, TableSpec upsertSpec) {
    this(writeMode, format, directory, commitIntervalMs, upsertSpec, CommitOptions.FLUSH_PIPELINED_DEFAULT);
  }

  /** As the other constructor, with {@code flush.pipelined} as given. */
  MergeSinkPeer(String writeMode, RecordFormat format, Path directory, long commitIntervalMs, TableSpec upsertSpec, boolean pipelined) {
    this.pipelined = pipelined;
    this.writeMode = writeMode;
    this.format = format;
    this.directory = directory;
    this.commitIntervalMs = commitIntervalMs;
    this.upsertSpec = upsertSpec;
  }

  @Override
  public String optionName() {
    return "mergesink-" + writeMode + (format == RecordFormat.JSON ? "" : "-" + format.label()) + (pipelined ? "-pipelined" : "");
  }

  @Override
  public String label() {
    return "MergeSink " + writeMode + (writeMode.equals("upsert") ? " (deletion vectors)" : "") + ", "
        + (format == RecordFormat.JSON ? "JsonConverter" : "DebeziumJsonConverter") + (pipelined ? ", flush.pipelined=true" : "");
  }

  @Override
  public void prepare(String topic, E2eWorkload workload) throws IOException {
    if (isUpsert() && workload.kind() != E2eWorkload.Kind.INSERT_ONLY) {
      E2eTables.preload(table(topic), upsertSpec, new MergeSinkConfig(connectorConfig(topic, "preload", 1)), topic, PARTITIONS, workload);
    }
  }

  @Override
  public Map<String, String> connectorConfig(String topic, String connector, int tasks) {
    Map<String, String> config = config(format, directory.resolve(topic), writeMode, topic, connector, tasks, commitIntervalMs);
    config.put(CommitOptions.FLUSH_PIPELINED, Boolean.toString(pipelined));
    return config;
  }

  /** The e2e suite's MergeSink configuration, with {@code write.mode} as given. */
  static Map<String, String> config(RecordFormat format, Path root, String writeMode, String topic, String connector, int tasks,
      long commitIntervalMs) {
    Map<String, String> config = Peer.baseConfig(format, MergeSinkConnector.class.getName(), tasks, topic);
    config.put(TableOptions.TABLE_ROOT, root.toAbsolutePath().toString());
    config.put(WriteOptions.WRITE_MODE, writeMode);
    config.put(WriteOptions.MERGE_STRATEGY, MergeStrategy.DELETION_VECTORS.configName());
    config.put(WriteOptions.PRIMARY_KEY_MODE, "record_key");
    config.put(WriteOptions.DELETE_ENABLED, "true");
    config.put(TableOptions.TXN_APP_ID, connector);
    config.put(CommitOptions.COMMIT_INTERVAL_MS, Long.toString(commitIntervalMs));
    return config;
  }

  /** The commits up to {@code latest} that are compactions (their {@code commitInfo} says {@code OPTIMIZE}). */
  private static long compactions(DeltaTable table, long latest) throws IOException {
    long compactions = 0;
    for (long version = 0; version <= latest; version++) {
      if (table.commitInfo(version).map(info -> Compactor.OPERATION.equals(info.values().get("operation"))).orElse(false)) {
        compactions++;
      }
    }
    return compactions;
  }

  @Override
  public String verify(String topic, E2eWorkload workload, StreamCounts counts) throws IOException {
    DeltaTable table = table(topic);
    if (isUpsert()) {
      long start = System.nanoTime();
      E2eTables.requireMatches(table, upsertSpec.schema(), workload);
      long latest = table.snapshot().version();
      TableFootprint footprint = TableFootprint.of(directory.resolve(topic), latest + 1, Seconds.since(start));
      return String.format("%,d rows = live keys, last versions; %s; %d of the commits compactions", workload.liveCount(),
          footprint.describe(), compactions(table, latest));
    }
    // append: every record is a row, a tombstone included (a delete of its key, with its own Kafka position)
    long expected = counts.changeEvents() + counts.tombstones();
    long rows = 0;
    try (TableScan scan = table.scan(table.snapshot(), List.of("_kafka_offset"))) {
      while (scan.hasNext()) {
        scan.next();
        rows++;
      }
    }
    if (rows != expected) {
      throw new IllegalStateException("append table " + table.root() + " has " + rows + " rows where " + expected + " records were produced");
    }
    return String.format("%,d rows = records", rows);
  }

  private boolean isUpsert() {
    return writeMode.equals("upsert");
  }

  private DeltaTable table(String topic) {
    return DeltaTable.forPath(new LocalStorage(), directory.resolve(topic).toAbsolutePath() + "/" + topic);
  }
}
