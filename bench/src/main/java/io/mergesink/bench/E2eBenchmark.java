package io.mergesink.bench;

import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The {@code e2e} suite (DESIGN §9): Debezium-shaped JSON change events (JsonConverter, schemas
 * enabled) in a 4-partition topic, MergeSink in an embedded Connect worker with 1 and 2 tasks.
 *
 * <p>Method, per run: a fresh topic and table; the connector starts on the empty topic (mixed
 * workloads first load {@code keys} inserts through the connector, untimed) and is paused; the
 * measured events are produced and flushed; the clock starts at the resume and stops when the
 * table's txn versions (read with merge-core, polled every {@value #POLL_MILLIS} ms) reach every
 * partition's last offset. Events/s = change events / that time (delete tombstones are extra
 * Kafka records, not counted). The time includes task resume and the last commit interval.
 * Broker, worker and tasks share this JVM and its CPUs. One unmeasured warm-up run (a tenth of the
 * size, uniform mix) goes first; repeats interleave workloads and task counts so drift hits all alike.
 *
 * <pre>
 * java -Xmx8g -jar bench/target/mergesink-bench.jar e2e [--quick] [--events=N] [--keys=K] [--repeats=R]
 *     [--only=insert-only,uniform,skewed,latency] [--tasks=1,2] [--commit-interval-ms=MS] [--dir=PATH]
 *     [--latency-events=N] [--latency-rate=EVENTS_PER_S]
 * </pre>
 *
 * <p>The {@code latency} workload runs after the throughput runs: see {@link E2eLatency}.
 */
public final class E2eBenchmark {
  static final String SUITE = "e2e";
  private static final int PARTITIONS = 4;
  private static final long POLL_MILLIS = 200;
  private static final long MIB = 1024 * 1024;
  private static final long SEED = 42;
  private static final int USAGE_ERROR = 2;
  /** The unmeasured warm-up run (JIT, broker, first table) is a tenth of a measured run. */
  private static final int WARMUP_DIVISOR = 10;
  private static final int WARMUP_REPEAT = 999;
  private static final String LATENCY = "latency";
  private static final Map<String, E2eWorkload.Kind> WORKLOADS = new LinkedHashMap<>(Map.of());

  static {
    WORKLOADS.put("insert-only", E2eWorkload.Kind.INSERT_ONLY);
    WORKLOADS.put("uniform", E2eWorkload.Kind.MIXED_UNIFORM);
    WORKLOADS.put("skewed", E2eWorkload.Kind.MIXED_SKEWED);
  }

  private E2eBenchmark() {}

  /** One measured run. Heap figures are of the whole JVM (broker, worker, producer, tasks). */
  record Run(double eventsPerSecond, double seconds, long peakHeap, long settledHeap, double commits, double commitAvgMs,
      double commitMaxMs) {}

  public static void main(String[] args) throws IOException {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println("usage: java -Xmx8g -jar mergesink-bench.jar e2e [--quick] [--events=N] [--keys=K] [--repeats=R]"
          + " [--only=insert-only,uniform,skewed,latency] [--tasks=1,2] [--commit-interval-ms=MS] [--dir=PATH]"
          + " [--latency-events=N] [--latency-rate=EVENTS_PER_S]");
      System.exit(USAGE_ERROR);
      return;
    }
    Path directory = options.directory() != null ? options.directory() : Files.createTempDirectory("mergesink-e2e");
    System.err.printf("[e2e] tables in %s; %,d events per run over %,d keys, %d partitions, tasks %s, %d repeat(s), commit interval %d ms%n",
        directory, options.events(), options.keys(), PARTITIONS, options.tasks(), options.repeats(), options.commitIntervalMs());
    Map<String, List<Run>> runs = new LinkedHashMap<>();
    Map<Integer, LatencyRun> latencies = new LinkedHashMap<>();
    long start = System.nanoTime();
    try (EmbeddedConnect connect = new EmbeddedConnect(options.commitIntervalMs())) {
      Options warmup = options.scaled(WARMUP_DIVISOR);
      Run warm = runOnce(connect, directory, warmup, E2eWorkload.Kind.MIXED_UNIFORM, options.tasks().get(0), WARMUP_REPEAT);
      System.err.printf("[e2e] warm-up (discarded): %,.0f events/s%n", warm.eventsPerSecond());
      for (int repeat = 0; repeat < options.repeats(); repeat++) {
        for (String workload : options.throughputWorkloads()) {
          for (int tasks : options.tasks()) {
            Run run = runOnce(connect, directory, options, WORKLOADS.get(workload), tasks, repeat);
            System.err.printf("[e2e] %s, %d task(s), repeat %d: %,.0f events/s (%.1f s), peak heap %,d MiB%n", workload, tasks,
                repeat, run.eventsPerSecond(), run.seconds(), run.peakHeap() / MIB);
            runs.computeIfAbsent(workload + "|" + tasks, k -> new ArrayList<>()).add(run);
          }
        }
      }
      if (options.workloads().contains(LATENCY)) {
        for (int tasks : options.tasks()) {
          latencies.put(tasks, runLatency(connect, directory, options, tasks));
        }
      }
    }
    Runtime runtime = Runtime.getRuntime();
    System.out.printf("MergeSink e2e benchmark: %,d change events per run (mixed: over %,d pre-loaded keys), %d partitions, "
        + "commit.interval.ms = offset.flush.interval.ms = %d, Java %s, %d CPUs, max heap %,d MiB, total %.0f s%n%n",
        options.events(), options.keys(), PARTITIONS, options.commitIntervalMs(), System.getProperty("java.version"),
        runtime.availableProcessors(), runtime.maxMemory() / MIB, Seconds.since(start));
    System.out.print(report(options, runs));
    if (!latencies.isEmpty()) {
      System.out.printf("%n| tasks | end-to-end latency produce → visible in Delta, at %,.0f events/s target (p50 / p99 / max ms) "
          + "| achieved rate events/s | events | commit latency avg / max ms (JMX) |%n|---|---|---|---|---|%n", options.latencyRate());
      latencies.forEach((tasks, run) -> System.out.printf("| %d | %.0f / %.0f / %.0f | %,.0f | %,d | %.0f / %.0f |%n", tasks,
          run.latency().p50Ms(), run.latency().p99Ms(), run.latency().maxMs(), run.latency().achievedRate(), run.latency().samples(),
          run.commitAvgMs(), run.commitMaxMs()));
    }
  }

  /** A latency run with the sink's JMX commit latency (average over its tasks, maximum of their maxima). */
  private record LatencyRun(E2eLatency.Latency latency, double commitAvgMs, double commitMaxMs) {}

  private static LatencyRun runLatency(EmbeddedConnect connect, Path directory, Options options, int tasks) throws IOException {
    String topic = "e2e-latency-t" + tasks;
    String connector = "sink-" + topic;
    E2eWorkload workload = new E2eWorkload(E2eWorkload.Kind.MIXED_UNIFORM, SEED);
    DeltaTable table = startLoaded(connect, directory, options, topic, connector, tasks, workload);
    try {
      E2eLatency.Latency latency = E2eLatency.measure(connect, topic, PARTITIONS, workload, table, connector, options.latencyEvents(),
          options.latencyRate());
      System.err.printf("[e2e] latency, %d task(s): p50 %.0f ms, p99 %.0f ms at %,.0f events/s%n", tasks, latency.p50Ms(),
          latency.p99Ms(), latency.achievedRate());
      return new LatencyRun(latency, average(EmbeddedConnect.taskMetric(connector, "commit-latency-avg-ms")),
          max(EmbeddedConnect.taskMetric(connector, "commit-latency-max-ms")));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while measuring latency", e);
    } finally {
      connect.deleteConnector(connector);
    }
  }

  private static double average(List<Double> values) {
    return values.stream().filter(value -> !value.isNaN()).mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  private static double max(List<Double> values) {
    return values.stream().filter(value -> !value.isNaN()).mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  private static Run runOnce(EmbeddedConnect connect, Path directory, Options options, E2eWorkload.Kind kind, int tasks,
      int repeat) throws IOException {
    String topic = "e2e-" + kind.name().toLowerCase(Locale.ROOT).replace('_', '-') + "-t" + tasks + "-r" + repeat;
    String connector = "sink-" + topic;
    E2eWorkload workload = new E2eWorkload(kind, SEED + repeat);
    DeltaTable table = startLoaded(connect, directory, options, topic, connector, tasks, workload);
    connect.pauseConnector(connector, tasks);
    for (long i = 0; i < options.events(); i++) {
      connect.send(topic, PARTITIONS, workload.next());
    }
    connect.flush();
    Map<TopicPartition, Long> ends = connect.endOffsets(topic);

    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long peakHeap = 0;
    long begin = System.nanoTime();
    connect.resumeConnector(connector);
    while (!caughtUp(table, connector, ends)) {
      peakHeap = Math.max(peakHeap, memory.getHeapMemoryUsage().getUsed());
      EmbeddedConnect.sleep(POLL_MILLIS);
    }
    double seconds = Seconds.since(begin);
    long settledHeap = HeapProbe.settledUsedHeap();
    double commits = sum(EmbeddedConnect.taskMetric(connector, "commit-total"));
    double commitAvg = average(EmbeddedConnect.taskMetric(connector, "commit-latency-avg-ms"));
    double commitMax = max(EmbeddedConnect.taskMetric(connector, "commit-latency-max-ms"));
    connect.deleteConnector(connector);
    return new Run(options.events() / seconds, seconds, peakHeap, settledHeap, commits, commitAvg, commitMax);
  }

  /**
   * Creates {@code topic} and starts connector {@code connector} on it; mixed workloads first load
   * {@code keys} inserts through the connector and wait until the table holds them.
   */
  private static DeltaTable startLoaded(EmbeddedConnect connect, Path directory, Options options, String topic, String connector,
      int tasks, E2eWorkload workload) {
    connect.createTopic(topic, PARTITIONS);
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.mergesink.connect.MergeSinkConnector");
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", topic);
    config.put("table.root", directory.toAbsolutePath().toString());
    config.put("write.mode", "upsert");
    config.put("merge.strategy", "deletion-vectors");
    config.put("primary.key.mode", "record_key");
    config.put("delete.enabled", "true");
    config.put("txn.app.id", connector);
    config.put("commit.interval.ms", Long.toString(options.commitIntervalMs()));
    connect.startConnector(connector, config, tasks);
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), directory.toAbsolutePath() + "/" + topic);
    if (workload.kind() != E2eWorkload.Kind.INSERT_ONLY) {
      for (long i = 0; i < options.keys(); i++) {
        connect.send(topic, PARTITIONS, workload.insert());
      }
      connect.flush();
      Map<TopicPartition, Long> loaded = connect.endOffsets(topic);
      EmbeddedConnect.await("the initial " + options.keys() + " keys in " + table.root(), () -> caughtUp(table, connector, loaded));
    }
    return table;
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
      throw new java.io.UncheckedIOException("cannot read the txn versions of " + table.root(), e);
    }
  }

  private static double sum(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).sum();
  }

  private static String report(Options options, Map<String, List<Run>> runs) {
    StringBuilder out = new StringBuilder();
    out.append("| workload | tasks | events/s (median, min–max, n) | catch-up s (median) | commits (last run) "
        + "| commit latency avg / max ms (last run, JMX) | peak heap MiB (median) | settled heap MiB (median) |\n");
    out.append("|---|---|---|---|---|---|---|---|\n");
    for (String workload : options.throughputWorkloads()) {
      for (int tasks : options.tasks()) {
        List<Run> list = runs.get(workload + "|" + tasks);
        Run last = list.get(list.size() - 1);
        out.append(String.format("| %s | %d | %s | %.1f | %.0f | %.0f / %.0f | %,.0f | %,.0f |%n", WORKLOADS.get(workload).label(), tasks,
            samples(list, Run::eventsPerSecond).describe("%,.0f", "").replace("  ", " "), samples(list, Run::seconds).median(), last.commits(),
            last.commitAvgMs(), last.commitMaxMs(), samples(list, run -> run.peakHeap() / (double) MIB).median(),
            samples(list, run -> run.settledHeap() / (double) MIB).median()));
      }
    }
    if (options.tasks().size() == 2) {
      out.append("\n| workload | events/s ratio ").append(options.tasks().get(1)).append(" tasks / ").append(options.tasks().get(0))
          .append(" task (per-repeat ratio: median, min–max, n) |\n|---|---|\n");
      for (String workload : options.throughputWorkloads()) {
        List<Run> one = runs.get(workload + "|" + options.tasks().get(0));
        List<Run> two = runs.get(workload + "|" + options.tasks().get(1));
        double[] ratios = new double[one.size()];
        for (int i = 0; i < ratios.length; i++) {
          ratios[i] = two.get(i).eventsPerSecond() / one.get(i).eventsPerSecond();
        }
        out.append("| ").append(WORKLOADS.get(workload).label()).append(" | ").append(Samples.of(ratios).describe("%.2f", "×"))
            .append(" |\n");
      }
    }
    return out.toString();
  }

  private static Samples samples(List<Run> runs, java.util.function.ToDoubleFunction<Run> value) {
    return Samples.of(runs.stream().mapToDouble(value).toArray());
  }

  /** The command line. */
  private record Options(long events, long keys, int repeats, List<String> workloads, List<Integer> tasks, long commitIntervalMs,
      Path directory, long latencyEvents, double latencyRate) {
    private static final long FULL_LATENCY_EVENTS = 150_000;
    private static final double FULL_LATENCY_RATE = 5_000;
    private static final long QUICK_LATENCY_EVENTS = 10_000;
    private static final double QUICK_LATENCY_RATE = 2_000;

    List<String> throughputWorkloads() {
      return workloads.stream().filter(WORKLOADS::containsKey).toList();
    }

    private static final long FULL_EVENTS = 300_000;
    private static final long FULL_KEYS = 100_000;
    private static final long QUICK_EVENTS = 20_000;
    private static final long QUICK_KEYS = 5_000;
    private static final long DEFAULT_COMMIT_INTERVAL_MS = 1_000;

    Options scaled(long divisor) {
      return new Options(Math.max(1, events / divisor), Math.max(1, keys / divisor), 1, workloads, tasks, commitIntervalMs, directory,
          latencyEvents, latencyRate);
    }

    static Options parse(String[] args) {
      if (args.length == 0 || !args[0].equals(SUITE)) {
        throw new IllegalArgumentException("expected the suite name '" + SUITE + "' first, found " + Arrays.toString(args));
      }
      long events = FULL_EVENTS;
      long keys = FULL_KEYS;
      int repeats = 1;
      List<String> workloads = new ArrayList<>(WORKLOADS.keySet());
      workloads.add(LATENCY);
      long latencyEvents = FULL_LATENCY_EVENTS;
      double latencyRate = FULL_LATENCY_RATE;
      List<Integer> tasks = List.of(1, 2);
      long commitInterval = DEFAULT_COMMIT_INTERVAL_MS;
      Path directory = null;
      for (String arg : Arrays.copyOfRange(args, 1, args.length)) {
        String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "";
        if (arg.equals("--quick")) {
          events = QUICK_EVENTS;
          keys = QUICK_KEYS;
          latencyEvents = QUICK_LATENCY_EVENTS;
          latencyRate = QUICK_LATENCY_RATE;
        } else if (arg.startsWith("--events=")) {
          events = Long.parseLong(value);
        } else if (arg.startsWith("--keys=")) {
          keys = Long.parseLong(value);
        } else if (arg.startsWith("--latency-events=")) {
          latencyEvents = Long.parseLong(value);
        } else if (arg.startsWith("--latency-rate=")) {
          latencyRate = Double.parseDouble(value);
        } else if (arg.startsWith("--repeats=")) {
          repeats = Integer.parseInt(value);
        } else if (arg.startsWith("--commit-interval-ms=")) {
          commitInterval = Long.parseLong(value);
        } else if (arg.startsWith("--dir=")) {
          directory = Path.of(value);
        } else if (arg.startsWith("--tasks=")) {
          tasks = Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf).toList();
        } else if (arg.startsWith("--only=")) {
          workloads = Arrays.stream(value.split(",")).map(String::trim).toList();
          for (String workload : workloads) {
            if (!WORKLOADS.containsKey(workload) && !workload.equals(LATENCY)) {
              throw new IllegalArgumentException("unknown workload '" + workload + "', expected some of " + WORKLOADS.keySet());
            }
          }
        } else {
          throw new IllegalArgumentException("unknown argument '" + arg + "'");
        }
      }
      return new Options(events, keys, repeats, workloads, tasks, commitInterval, directory, latencyEvents, latencyRate);
    }
  }
}
