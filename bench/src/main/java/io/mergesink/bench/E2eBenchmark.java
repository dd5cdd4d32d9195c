package io.mergesink.bench;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.ingest.config.CommitOptions;
import io.mergesink.ingest.config.TableOptions;
import io.mergesink.ingest.config.WriteOptions;
import io.mergesink.localconnect.ConnectMetrics;
import io.mergesink.localconnect.LocalConnect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The {@code e2e} suite (bench/README.md): Debezium-shaped change events in a 4-partition topic, as JSON
 * with schemas and as Avro ({@link RecordFormat}), MergeSink in an embedded Connect worker with 1
 * and 2 tasks.
 *
 * <p>Method, per throughput run: a fresh topic and table. Mixed workloads start on a table
 * preloaded with {@code keys} rows by merge-core ({@link E2eTables#preload}, untimed; the table
 * spec is the one the connector gave a table of the same events, read once at the start). The
 * connector starts, takes a few priming changes (one per partition, so every task opens its writer
 * and loads its key index) and is paused; the measured events are produced and flushed; the clock
 * starts at the resume and stops when the table's txn versions (read with merge-core, polled every
 * {@value #POLL_MILLIS} ms) reach every partition's last offset. Events/s = change events / that
 * time (delete tombstones are extra Kafka records, not counted). Afterwards the table must hold
 * exactly the workload's live keys in their last versions, or the suite fails. Broker, worker and
 * tasks share this JVM and its CPUs. One unmeasured warm-up run per format (a tenth of the size,
 * uniform mix) goes first; repeats interleave workloads, formats and task counts so drift hits all
 * alike, and every case of one repeat gets the same event stream.
 *
 * <pre>
 * java -Xmx8g -jar bench/target/mergesink-bench.jar e2e [--quick] [--events=N] [--keys=K] [--repeats=R]
 *     [--only=insert-only,uniform,skewed,latency] [--tasks=1,2] [--formats=json,json-fast,avro] [--commit-interval-ms=MS]
 *     [--dir=PATH] [--latency-events=N] [--latency-rate=EVENTS_PER_S] [--buffer-max-bytes=N] [--buffer-max-records=N]
 * </pre>
 *
 * <p>The {@code latency} workload runs after the throughput runs: see {@link E2eLatency}; commit
 * latency percentiles come from the sink's JMX metrics over its fixed-rate phase.
 */
public final class E2eBenchmark {
  static final String SUITE = "e2e";
  private static final int PARTITIONS = 4;
  private static final long POLL_MILLIS = 200;
  private static final long CATCH_UP_TIMEOUT_NANOS = 600_000_000_000L;
  private static final long MIB = 1024 * 1024;
  private static final long SEED = 42;
  private static final int USAGE_ERROR = 2;
  private static final int FAILED = 1;
  private static final MergeStrategy STRATEGY = MergeStrategy.DELETION_VECTORS;
  /** The unmeasured warm-up run (JIT, broker, first table) is a tenth of a measured run. */
  private static final int WARMUP_DIVISOR = 10;
  private static final int WARMUP_REPEAT = 999;
  /**
   * The worker's sampled metrics cover a latency run plus this many commit intervals: more than the
   * run's tail (its last commit and the poll that sees it), so all of the run's commits count.
   */
  private static final int METRICS_MARGIN_COMMIT_INTERVALS = 5;

  private final LocalConnect connect;
  private final ChangeProducer changes;
  private final Path directory;
  private final E2eOptions options;
  private TableSpec spec;

  private E2eBenchmark(LocalConnect connect, ChangeProducer changes, Path directory, E2eOptions options) {
    this.connect = connect;
    this.changes = changes;
    this.directory = directory;
    this.options = options;
  }

  public static void main(String[] args) throws IOException {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    E2eOptions options;
    try {
      options = E2eOptions.parse(SUITE, args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(E2eOptions.USAGE);
      System.exit(USAGE_ERROR);
      return;
    }
    options.formats().forEach(RecordFormat::requireStructRoundTrip);
    boolean temporary = options.directory() == null;
    Path directory = temporary ? Files.createTempDirectory("mergesink-e2e") : options.directory();
    long metricsMargin = METRICS_MARGIN_COMMIT_INTERVALS * options.commitIntervalMs();
    long metricsWindow = options.latencyMillis() + metricsMargin;
    System.err.printf("[e2e] tables in %s; %,d events per run, mixed workloads over %,d preloaded keys, %d partitions, tasks %s, "
        + "formats %s, %d repeat(s), commit interval %d ms, metrics window %,d ms%n", directory, options.events(), options.keys(),
        PARTITIONS, options.tasks(), options.formats(), options.repeats(), options.commitIntervalMs(), metricsWindow);
    E2eReport report = new E2eReport(options);
    long start = System.nanoTime();
    try (LocalConnect connect = BenchConnect.start(options.commitIntervalMs(), metricsWindow, Map.of(), Map.of());
        ChangeProducer changes = new ChangeProducer(connect)) {
      new E2eBenchmark(connect, changes, directory, options).run(report, metricsMargin);
    } catch (IOException | RuntimeException e) {
      // Kafka's non-daemon threads would keep the JVM alive after a failed run
      e.printStackTrace();
      System.exit(FAILED);
    }
    if (temporary) {
      TempDirectories.deleteRecursively(directory);
    }
    System.out.printf("MergeSink e2e benchmark: %,d change events per run (mixed: on %,d preloaded keys), %d partitions, "
        + "commit.interval.ms = offset.flush.interval.ms = %d, %s, total %.0f s%n%n",
        options.events(), options.keys(), PARTITIONS, options.commitIntervalMs(), JvmDescription.describe(), Seconds.since(start));
    System.out.print(report.toMarkdown());
  }

  private void run(E2eReport report, long metricsMargin) throws IOException {
    spec = connectorSpec();
    E2eOptions warmup = options.scaled(WARMUP_DIVISOR);
    for (RecordFormat format : options.formats()) {
      E2eReport.Case warm = new E2eReport.Case(E2eWorkload.Kind.MIXED_UNIFORM, format, options.tasks().get(0));
      System.err.printf("[e2e] warm-up %s (discarded): %,.0f events/s%n", format.label(), runOnce(warm, warmup, WARMUP_REPEAT).eventsPerSecond());
    }
    for (int repeat = 0; repeat < options.repeats(); repeat++) {
      for (String workload : options.throughputWorkloads()) {
        for (RecordFormat format : options.formats()) {
          for (int tasks : options.tasks()) {
            E2eReport.Case key = new E2eReport.Case(E2eWorkload.Kind.of(workload), format, tasks);
            E2eReport.Run run = runOnce(key, options, repeat);
            System.err.printf("[e2e] %s, %s, %d task(s), repeat %d: %,.0f events/s (%.1f s), commit p50 %.0f ms, peak heap %,d MiB%n",
                workload, format.label(), tasks, repeat, run.eventsPerSecond(), run.seconds(), run.commitP50Ms(), run.peakHeap() / MIB);
            report.add(key, run);
          }
        }
      }
    }
    if (options.workloads().contains(E2eOptions.LATENCY)) {
      for (RecordFormat format : options.formats()) {
        for (int tasks : options.tasks()) {
          report.add(runLatency(format, tasks, metricsMargin));
        }
      }
    }
  }

  /**
   * Lets the connector create a table from one insert event, in every format, and returns its
   * spec: the run tables are created from it.
   *
   * @throws IllegalStateException the formats lead to different tables
   */
  private TableSpec connectorSpec() throws IOException {
    TableSpec found = null;
    for (RecordFormat format : options.formats()) {
      String topic = "e2e-spec-" + format.label();
      String connector = "sink-" + topic;
      DeltaTable table = table(topic);
      connect.createTopic(topic, PARTITIONS);
      connect.startConnector(connector, sinkConfig(topic, connector, 1, format), 1);
      E2eWorkload workload = new E2eWorkload(E2eWorkload.Kind.INSERT_ONLY, SEED);
      changes.send(topic, PARTITIONS, new ChangeEncoder(format), workload.insert(), null);
      changes.flush();
      awaitCaughtUp(table, connector, connect.endOffsets(topic));
      connect.deleteConnector(connector);
      TableSpec spec = E2eTables.specOf(table, STRATEGY);
      if (found != null && !found.equals(spec)) {
        throw new IllegalStateException("the connector creates different tables from " + options.formats() + ": " + found + " vs " + spec);
      }
      found = spec;
      finish(table, workload);
    }
    System.err.printf("[e2e] table spec as the connector creates it: %s, key %s, %s%n", found.schema(), found.keyColumns(),
        found.properties());
    return found;
  }

  private E2eReport.Run runOnce(E2eReport.Case key, E2eOptions sizes, int repeat) throws IOException {
    String topic = "e2e-" + key.kind().optionName() + "-" + key.format().label() + "-t" + key.tasks() + "-r" + repeat;
    String connector = "sink-" + topic;
    E2eWorkload workload = new E2eWorkload(key.kind(), SEED + repeat);
    ChangeEncoder encoder = new ChangeEncoder(key.format());
    DeltaTable table = startPrimed(topic, connector, key.tasks(), workload, encoder, sizes.keys());
    connect.pauseConnector(connector, key.tasks());
    for (long i = 0; i < sizes.events(); i++) {
      changes.send(topic, PARTITIONS, encoder, workload.next(), null);
    }
    changes.flush();
    Map<TopicPartition, Long> ends = connect.endOffsets(topic);
    double commitsBefore = sum(ConnectMetrics.taskMetric(connector, "commit-total"));

    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long peakHeap = 0;
    long begin = System.nanoTime();
    connect.resumeConnector(connector);
    while (!caughtUp(table, connector, ends)) {
      peakHeap = Math.max(peakHeap, memory.getHeapMemoryUsage().getUsed());
      if (System.nanoTime() - begin > CATCH_UP_TIMEOUT_NANOS) {
        throw new IllegalStateException(connector + " did not catch up on " + ends + " in " + CATCH_UP_TIMEOUT_NANOS / 1e9 + " s");
      }
      connect.requireNotFailed(connector);
      BenchConnect.sleep(POLL_MILLIS);
    }
    double seconds = Seconds.since(begin);
    long settledHeap = HeapProbe.settledUsedHeap();
    double commitP50 = max(ConnectMetrics.taskMetric(connector, "commit-latency-p50-ms"));
    double commits = sum(ConnectMetrics.taskMetric(connector, "commit-total")) - commitsBefore;
    connect.deleteConnector(connector);
    finish(table, workload);
    return new E2eReport.Run(sizes.events() / seconds, seconds, peakHeap, settledHeap, commits, commitP50, encoder.bytesPerEvent());
  }

  /**
   * A latency run on a table of {@code keys} rows (uniform mix). The worker's metrics window is the
   * fixed-rate phase's length plus {@code metricsMargin}, and the phase starts {@code metricsMargin}
   * after the priming commits: at its end the sink's commit-latency percentiles cover the phase's
   * commits and no longer the priming ones (which load the key index).
   */
  private E2eReport.LatencyRun runLatency(RecordFormat format, int tasks, long metricsMargin) throws IOException {
    String topic = "e2e-latency-" + format.label() + "-t" + tasks;
    String connector = "sink-" + topic;
    E2eWorkload workload = new E2eWorkload(E2eWorkload.Kind.MIXED_UNIFORM, SEED);
    ChangeEncoder encoder = new ChangeEncoder(format);
    DeltaTable table = startPrimed(topic, connector, tasks, workload, encoder, options.keys());
    BenchConnect.sleep(metricsMargin);
    double commitsBefore = sum(ConnectMetrics.taskMetric(connector, "commit-total"));
    E2eLatency.Latency latency;
    try {
      latency = E2eLatency.measure(changes, topic, PARTITIONS, workload, encoder, table, connector, options.latencyEvents(),
          options.latencyRate());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while measuring latency", e);
    }
    E2eReport.LatencyRun run = new E2eReport.LatencyRun(format, tasks, latency,
        max(ConnectMetrics.taskMetric(connector, "commit-latency-p50-ms")), max(ConnectMetrics.taskMetric(connector, "commit-latency-p99-ms")),
        sum(ConnectMetrics.taskMetric(connector, "commit-total")) - commitsBefore);
    System.err.printf("[e2e] latency, %s, %d task(s): p50 %.0f ms, p99 %.0f ms at %,.0f events/s; commit p50 %.0f ms, p99 %.0f ms%n",
        format.label(), tasks, latency.p50Ms(), latency.p99Ms(), latency.achievedRate(), run.commitP50Ms(), run.commitP99Ms());
    connect.deleteConnector(connector);
    finish(table, workload);
    return run;
  }

  /**
   * Creates {@code topic}; for a mixed workload, preloads {@code keys} keys into the table; starts
   * connector {@code connector} and primes it (see {@link #prime}).
   */
  private DeltaTable startPrimed(String topic, String connector, int tasks, E2eWorkload workload, ChangeEncoder encoder, long keys)
      throws IOException {
    DeltaTable table = table(topic);
    Map<String, String> config = sinkConfig(topic, connector, tasks, encoder.format());
    if (workload.kind() != E2eWorkload.Kind.INSERT_ONLY) {
      for (long i = 0; i < keys; i++) {
        workload.insert();
      }
      long start = System.nanoTime();
      E2eTables.preload(table, spec, new MergeSinkConfig(config), topic, PARTITIONS, workload);
      System.err.printf("[e2e] %s: %,d keys preloaded in %.1f s%n", topic, keys, Seconds.since(start));
    }
    connect.createTopic(topic, PARTITIONS);
    connect.startConnector(connector, config, tasks);
    prime(topic, connector, table, workload, encoder);
    return table;
  }

  /**
   * Sends changes of the workload until every partition got one and waits until the table holds
   * them: every task has then opened its writer and loaded its key index, which a running
   * connector has done long before.
   */
  private void prime(String topic, String connector, DeltaTable table, E2eWorkload workload, ChangeEncoder encoder) {
    BitSet primed = new BitSet();
    while (primed.cardinality() < PARTITIONS) {
      E2eWorkload.Change change = workload.next();
      changes.send(topic, PARTITIONS, encoder, change, null);
      primed.set(ChangeProducer.partitionOf(change.id(), PARTITIONS));
    }
    changes.flush();
    awaitCaughtUp(table, connector, connect.endOffsets(topic));
  }

  private Map<String, String> sinkConfig(String topic, String connector, int tasks, RecordFormat format) {
    Map<String, String> config = new HashMap<>(format.connectorConfig());
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", topic);
    config.put(TableOptions.TABLE_ROOT, root(topic).toAbsolutePath().toString());
    config.put(WriteOptions.WRITE_MODE, "upsert");
    config.put(WriteOptions.MERGE_STRATEGY, STRATEGY.configName());
    config.put(WriteOptions.PRIMARY_KEY_MODE, "record_key");
    config.put(WriteOptions.DELETE_ENABLED, "true");
    config.put(TableOptions.TXN_APP_ID, connector);
    config.put(CommitOptions.COMMIT_INTERVAL_MS, Long.toString(options.commitIntervalMs()));
    config.putAll(options.sinkOverrides());
    return config;
  }

  /** Each run has a table root of its own, so a task's start never reads other runs' tables. */
  private Path root(String topic) {
    return directory.resolve(topic);
  }

  private DeltaTable table(String topic) {
    return DeltaTable.forPath(new LocalStorage(), root(topic).toAbsolutePath() + "/" + topic);
  }

  /** Checks the table a run left: see {@link E2eTables#requireMatches}. */
  private void finish(DeltaTable table, E2eWorkload workload) throws IOException {
    E2eTables.requireMatches(table, spec == null ? table.snapshot().schema() : spec.schema(), workload);
  }

  private void awaitCaughtUp(DeltaTable table, String connector, Map<TopicPartition, Long> ends) {
    BenchConnect.await(connector + " to commit up to " + ends, () -> {
      connect.requireNotFailed(connector);
      return caughtUp(table, connector, ends);
    });
  }

  /** Whether {@code table} holds every partition of {@code ends} up to its last offset. */
  private static boolean caughtUp(DeltaTable table, String appIdPrefix, Map<TopicPartition, Long> ends) {
    try {
      if (!table.exists()) {
        return false;
      }
      Map<String, Long> txns = table.snapshot().txnVersions();
      for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
        TopicPartition partition = end.getKey();
        Long version = txns.get(appIdPrefix + ":" + partition.topic() + ":" + partition.partition());
        if (end.getValue() > 0 && (version == null || version < end.getValue() - 1)) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the txn versions of " + table.root(), e);
    }
  }

  private static double sum(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).sum();
  }

  private static double max(List<Double> values) {
    return values.stream().filter(value -> !value.isNaN()).mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }
}
