package io.mergesink.bench;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.localconnect.ConnectMetrics;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.localpg.LocalPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;

/**
 * The {@code peers} suite (bench/README.md): the e2e suite's Debezium change stream fed
 * through MergeSink and through the sinks a user would run instead, in one embedded Connect worker,
 * one after the other, on the same machine in the same run: MergeSink upserts (JsonConverter and
 * its own DebeziumJsonConverter) and appends, the Debezium JDBC sink upserting into PostgreSQL
 * ({@link JdbcSinkPeer}, with JsonConverter and with DebeziumJsonConverter: a converter serves any
 * sink) and the Apache Iceberg sink appending to a Hadoop-catalog table ({@link IcebergSinkPeer}).
 * Every sink reads the same JSON with schemas, with the same tasks, partitions (4) and commit
 * interval (1 s; Connect's offset flush interval too).
 *
 * <p>The peers are Connect plugins in their own {@code plugin.path} directories
 * ({@code bench/peers/*&#47;target/plugins}, built with the bench), each in its own class loader as
 * real deployments isolate plugins; none of their jars is on the bench's class path or in MergeSink's
 * plugin. Method per run: a fresh topic and table; the sink's table is prepared
 * ({@link Peer#prepare}: the mixed workload starts on a table holding its preloaded keys for the
 * upsert sinks); the connector starts, gets one change per partition and is awaited (so tables exist
 * and tasks have opened them) and paused; the measured events are produced; the clock runs from
 * the resume until the connector's consumer group has committed every partition's end offset and
 * the table shows it ({@link Peer#visible}): the JDBC sink commits offsets after its statements,
 * MergeSink after its Delta commit; the Iceberg sink's tasks commit theirs with the announcement of
 * their data files, so its run also waits until the current snapshot holds every row. Then the
 * table is checked ({@link Peer#verify}) or the suite fails. Before the measured runs every sink
 * runs once on a smaller stream, unmeasured ({@code --warmup-events}), so that no sink is measured
 * while the JVM still compiles its code.
 *
 * <pre>
 * java -Xms4g -Xmx4g -XX:+AlwaysPreTouch -jar bench/target/mergesink-bench.jar peers [--quick] [--events=N] [--keys=K] [--repeats=R] [--warmup-events=N]
 *     [--only=insert-only,uniform] [--tasks=1,4] [--sinks=...] [--commit-interval-ms=MS] [--jdbc-batch-size=N] [--dir=PATH]
 * </pre>
 */
public final class PeersBenchmark {
  static final String SUITE = "peers";
  static final int PARTITIONS = 4;
  private static final long POLL_MILLIS = 200;
  private static final long CATCH_UP_TIMEOUT_NANOS = 1_800_000_000_000L;
  /** Connect's task metrics (put and offset-commit times) cover a whole run: longer than the longest catch-up. */
  private static final long METRICS_WINDOW_MILLIS = 3_600_000;
  private static final long SEED = 42;
  private static final int USAGE_ERROR = 2;
  private static final int FAILED = 1;

  private final LocalConnect connect;
  private final ChangeProducer producer;
  private final PeersOptions options;
  private final Map<String, Peer> peers;

  private PeersBenchmark(LocalConnect connect, ChangeProducer producer, PeersOptions options, Map<String, Peer> peers) {
    this.connect = connect;
    this.producer = producer;
    this.options = options;
    this.peers = peers;
  }

  public static void main(String[] args) throws IOException {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    PeersOptions options;
    try {
      options = PeersOptions.parse(SUITE, args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(PeersOptions.USAGE);
      System.exit(USAGE_ERROR);
      return;
    }
    RecordFormat.JSON.requireStructRoundTrip();
    RecordFormat.JSON_FAST.requireStructRoundTrip();
    boolean temporary = options.directory() == null;
    Path directory = temporary ? Files.createTempDirectory("mergesink-peers") : options.directory();
    long start = System.nanoTime();
    PeersReport report;
    try (LocalConnect connect = BenchConnect.start(options.commitIntervalMs(), METRICS_WINDOW_MILLIS, workerProps(), brokerProps());
        ChangeProducer producer = new ChangeProducer(connect);
        LocalPostgres postgres = options.sinks().contains("jdbc") ? LocalPostgres.start("peers") : null) {
      Map<String, Peer> peers = peers(connect, producer, postgres, directory, options);
      Map<String, String> labels = new LinkedHashMap<>();
      peers.forEach((name, peer) -> labels.put(name, peer.label()));
      report = new PeersReport(options, labels);
      new PeersBenchmark(connect, producer, options, peers).run(report);
    } catch (IOException | RuntimeException e) {
      e.printStackTrace();
      System.exit(FAILED);
      return;
    }
    if (temporary) {
      deleteRecursively(directory);
    }
    System.out.printf("MergeSink peers benchmark: %,d change events per run (90/5/5: on %,d preloaded keys), %d partitions, "
        + "JSON with schemas, commit interval = offset flush interval = %d ms, %s, total %.0f s%n%n",
        options.events(), options.keys(), PARTITIONS, options.commitIntervalMs(), JvmDescription.describe(), Seconds.since(start));
    System.out.print(report.toMarkdown());
  }

  private static Map<String, Peer> peers(LocalConnect connect, ChangeProducer producer, LocalPostgres postgres, Path directory, PeersOptions options)
      throws IOException {
    TableSpec spec = options.sinks().stream().anyMatch(sink -> sink.startsWith("mergesink-upsert") || sink.equals("mergesink-iceberg-upsert")
        || sink.equals("mergesink-paimon-upsert"))
        ? upsertSpec(connect, producer, directory.resolve("spec"), options.commitIntervalMs()) : null;
    Map<String, Peer> peers = new LinkedHashMap<>();
    for (String sink : options.sinks()) {
      Peer peer = switch (sink) {
        case "mergesink-upsert" -> new MergeSinkPeer("upsert", RecordFormat.JSON, directory, options.commitIntervalMs(), spec);
        case "mergesink-upsert-json-fast" -> new MergeSinkPeer("upsert", RecordFormat.JSON_FAST, directory, options.commitIntervalMs(), spec);
        case "mergesink-upsert-json-fast-pipelined" ->
            new MergeSinkPeer("upsert", RecordFormat.JSON_FAST, directory, options.commitIntervalMs(), spec, true);
        case "mergesink-append" -> new MergeSinkPeer("append", RecordFormat.JSON, directory, options.commitIntervalMs(), spec);
        case "mergesink-iceberg-upsert" -> new MergeSinkIcebergPeer(directory, options.commitIntervalMs(), spec);
        case "mergesink-paimon-upsert" -> new MergeSinkPaimonPeer(directory, options.commitIntervalMs(), spec);
        case "jdbc" -> new JdbcSinkPeer(postgres, RecordFormat.JSON, options.jdbcBatchSize());
        case "jdbc-json-fast" -> new JdbcSinkPeer(postgres, RecordFormat.JSON_FAST, options.jdbcBatchSize());
        case "iceberg" -> new IcebergSinkPeer(connect, directory.resolve("iceberg"), RecordFormat.JSON, options.commitIntervalMs());
        default -> throw new IllegalArgumentException("unknown sink " + sink);
      };
      peers.put(sink, peer);
    }
    return peers;
  }

  private void run(PeersReport report) throws IOException {
    warmUp();
    for (int repeat = 0; repeat < options.repeats(); repeat++) {
      for (String workload : options.workloads()) {
        for (int tasks : options.tasks()) {
          List<String> sinks = options.sinks();
          for (int i = 0; i < sinks.size(); i++) {
            // each repeat starts the round of sinks at another one, so machine drift does not always hit the same sink
            String sink = sinks.get((i + repeat) % sinks.size());
            PeersReport.Run run = runOnce(peers.get(sink), E2eWorkload.Kind.of(workload), tasks, "r" + repeat, SEED + repeat,
                options.events(), options.keys());
            System.err.printf("[peers] %s, %d task(s), %s, repeat %d: %,.0f events/s (%.1f s), put %.0f ms, offset commit %.0f ms; %s%n",
                workload, tasks, sink, repeat, run.eventsPerSecond(), run.seconds(), run.putBatchMs(), run.offsetCommitMs(), run.check());
            report.add(new PeersReport.Case(workload, tasks, sink), run);
          }
        }
      }
    }
  }

  /**
   * Runs every sink once on each workload with a smaller stream, unmeasured, before the measured
   * runs: otherwise the first sink of the run would also pay for compiling the code every sink
   * shares (consumer, converters, Connect) and its own first compilation, the later ones not.
   */
  private void warmUp() throws IOException {
    if (options.warmupEvents() == 0) {
      return;
    }
    for (String workload : options.workloads()) {
      for (String sink : options.sinks()) {
        PeersReport.Run run = runOnce(peers.get(sink), E2eWorkload.Kind.of(workload), 1, "warmup", SEED - 1, options.warmupEvents(),
            Math.min(options.keys(), options.warmupEvents()));
        System.err.printf("[peers] warm-up (not measured): %s, %s: %,.0f events/s; %s%n", workload, sink, run.eventsPerSecond(), run.check());
      }
    }
  }

  /**
   * One measured run: a fresh topic and table, {@code events} changes (the mixed workload on
   * {@code keys} preloaded keys) from a workload seeded with {@code seed}.
   *
   * @param round names the run's topic and connector, unique within the suite
   */
  private PeersReport.Run runOnce(Peer peer, E2eWorkload.Kind kind, int tasks, String round, long seed, long events, long keys)
      throws IOException {
    String topic = "peers-" + kind.optionName() + "-t" + tasks + "-" + round + "-" + peer.optionName();
    String connector = "sink-" + topic;
    E2eWorkload workload = new E2eWorkload(kind, seed);
    if (kind != E2eWorkload.Kind.INSERT_ONLY) {
      for (long i = 0; i < keys; i++) {
        workload.insert();
      }
    }
    long prepareStart = System.nanoTime();
    peer.prepare(topic, workload);
    System.err.printf("[peers] %s prepared in %.1f s%n", topic, Seconds.since(prepareStart));
    connect.createTopic(topic, PARTITIONS);
    connect.startConnector(connector, peer.connectorConfig(topic, connector, tasks), tasks);
    ChangeEncoder encoder = new ChangeEncoder(RecordFormat.JSON);
    Counter counter = new Counter();
    BitSet primed = new BitSet();
    while (primed.cardinality() < PARTITIONS) {
      E2eWorkload.Change change = workload.next();
      counter.send(topic, encoder, change);
      primed.set(ChangeProducer.partitionOf(change.id(), PARTITIONS));
    }
    producer.flush();
    Map<TopicPartition, Long> primedEnds = connect.endOffsets(topic);
    Peer.StreamCounts primedCounts = counter.counts();
    BenchConnect.await(connector + " to commit its priming records", () -> {
      connect.requireNotFailed(connector);
      return caughtUp(peer, topic, connector, primedEnds, primedCounts);
    });
    connect.pauseConnector(connector, tasks);
    for (long i = 0; i < events; i++) {
      counter.send(topic, encoder, workload.next());
    }
    producer.flush();
    Map<TopicPartition, Long> ends = connect.endOffsets(topic);
    Peer.StreamCounts counts = counter.counts();

    long begin = System.nanoTime();
    connect.resumeConnector(connector);
    while (!caughtUp(peer, topic, connector, ends, counts)) {
      if (System.nanoTime() - begin > CATCH_UP_TIMEOUT_NANOS) {
        throw new IllegalStateException(connector + " did not catch up on " + ends + " in " + CATCH_UP_TIMEOUT_NANOS / 1e9 + " s");
      }
      connect.requireNotFailed(connector);
      BenchConnect.sleep(POLL_MILLIS);
    }
    double seconds = Seconds.since(begin);
    double putMs = max(ConnectMetrics.connectTaskMetric(connector, "sink-task-metrics", "put-batch-avg-time-ms"));
    double commitMs = max(ConnectMetrics.connectTaskMetric(connector, "connector-task-metrics", "offset-commit-avg-time-ms"));
    connect.deleteConnector(connector);
    String check = peer.verify(topic, workload, counts);
    return new PeersReport.Run(events / seconds, seconds, putMs, commitMs, check);
  }

  /**
   * Whether the connector's consumer group has committed every partition of {@code ends} up to its
   * end and the peer's table shows it ({@link Peer#visible}).
   */
  private boolean caughtUp(Peer peer, String topic, String connector, Map<TopicPartition, Long> ends, Peer.StreamCounts counts) {
    Map<TopicPartition, Long> committed = connect.committedOffsets("connect-" + connector);
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (end.getValue() > 0 && committed.getOrDefault(end.getKey(), 0L) < end.getValue()) {
        return false;
      }
    }
    try {
      return peer.visible(topic, counts);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the table of " + connector, e);
    }
  }

  /**
   * The spec of the table MergeSink's connector creates for the bench's events (upsert mode):
   * preloaded tables are created from it, as in the e2e suite.
   */
  private static TableSpec upsertSpec(LocalConnect connect, ChangeProducer producer, Path root, long commitIntervalMs) throws IOException {
    String topic = "peers-spec";
    String connector = "sink-" + topic;
    connect.createTopic(topic, PARTITIONS);
    connect.startConnector(connector, MergeSinkPeer.config(RecordFormat.JSON, root, "upsert", topic, connector, 1, commitIntervalMs), 1);
    E2eWorkload workload = new E2eWorkload(E2eWorkload.Kind.INSERT_ONLY, SEED);
    producer.send(topic, PARTITIONS, new ChangeEncoder(RecordFormat.JSON), workload.insert(), null);
    producer.flush();
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toAbsolutePath() + "/" + topic);
    BenchConnect.await("the spec table " + table.root(), () -> {
      try {
        return table.exists() && table.snapshot().version() >= 1;
      } catch (IOException e) {
        return false;
      }
    });
    connect.deleteConnector(connector);
    return E2eTables.specOf(table, MergeStrategy.DELETION_VECTORS);
  }

  /** The worker's plugin path: one directory per peer, each holding that peer's plugin directory. */
  private static Map<String, String> workerProps() {
    Path bench = benchModule();
    List<Path> plugins = List.of(bench.resolve("peers/debezium-jdbc/target/plugins"), bench.resolve("peers/iceberg/target/plugins"));
    for (Path plugin : plugins) {
      if (!Files.isDirectory(plugin)) {
        throw new IllegalStateException("no peer plugin directory " + plugin + ": build it with ./mvnw -q -B -pl bench -am package -DskipTests");
      }
    }
    return Map.of("plugin.path", String.join(",", plugins.stream().map(Path::toString).toList()),
        // the peers' jars do not all carry ServiceLoader manifests
        "plugin.discovery", "hybrid_warn");
  }

  /** The Iceberg sink's coordinator commits in Kafka transactions: one broker must be enough for them. */
  private static Map<String, String> brokerProps() {
    return Map.of("transaction.state.log.replication.factor", "1", "transaction.state.log.min.isr", "1");
  }

  /** The bench module's directory: the parent of {@code target/} that holds this jar. */
  private static Path benchModule() {
    try {
      Path jar = Path.of(PeersBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return jar.toAbsolutePath().getParent().getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the bench jar", e);
    }
  }

  private static double max(List<Double> values) {
    return values.stream().filter(value -> !value.isNaN()).mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  private static void deleteRecursively(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  /** Sends a run's changes and counts them. */
  private final class Counter {
    private long changes;
    private long tombstones;

    Peer.StreamCounts counts() {
      return new Peer.StreamCounts(changes, tombstones);
    }

    void send(String topic, ChangeEncoder encoder, E2eWorkload.Change change) {
      producer.send(topic, PARTITIONS, encoder, change, null);
      changes++;
      if (change.op().equals("d")) {
        tombstones++;
      }
    }
  }
}
