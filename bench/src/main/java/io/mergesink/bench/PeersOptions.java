package io.mergesink.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The peers suite's command line. Defaults: the e2e suite's stream (500k change events; the
 * 90/5/5 workload on 1M preloaded keys), 1 and 4 tasks, every sink, one repeat; about 15 minutes
 * on 2 cores, most of it the JDBC sink. {@code --quick} is a smoke run of every case.
 *
 * @param warmupEvents the size of every sink's unmeasured first run on each workload; 0 for none
 * @param sinks {@link Peer#optionName()}s, in the order they run within a case
 * @param directory where tables go; null for a temporary directory, removed at the end
 */
record PeersOptions(long events, long keys, long warmupEvents, int repeats, List<String> workloads, List<Integer> tasks, List<String> sinks,
    long commitIntervalMs, int jdbcBatchSize, Path directory) {
  static final List<String> ALL_SINKS = List.of("mergesink-upsert", "mergesink-upsert-json-fast",
      "mergesink-upsert-json-fast-pipelined", "mergesink-append",
      "mergesink-iceberg-upsert", "mergesink-paimon-upsert", "jdbc", "jdbc-json-fast", "iceberg");
  static final String USAGE = "usage: java -Xms4g -Xmx4g -XX:+AlwaysPreTouch -jar mergesink-bench.jar peers [--quick] [--events=N] [--keys=K] [--repeats=R] [--warmup-events=N]"
      + " [--only=insert-only,uniform] [--tasks=1,4] [--sinks=" + String.join(",", ALL_SINKS) + "] [--commit-interval-ms=MS]"
      + " [--jdbc-batch-size=N] [--dir=PATH]";
  private static final long FULL_EVENTS = 500_000;
  private static final long FULL_KEYS = 1_000_000;
  private static final long QUICK_EVENTS = 20_000;
  private static final long QUICK_KEYS = 20_000;
  private static final long WARMUP_EVENTS = 100_000;
  private static final long QUICK_WARMUP_EVENTS = 5_000;
  private static final long DEFAULT_COMMIT_INTERVAL_MS = 1_000;
  /** What the first comparison used; Debezium's default is 500. */
  private static final int DEFAULT_JDBC_BATCH_SIZE = 5_000;

  /**
   * @throws IllegalArgumentException an unknown or malformed argument
   */
  static PeersOptions parse(String suite, String[] args) {
    if (args.length == 0 || !args[0].equals(suite)) {
      throw new IllegalArgumentException("expected the suite name '" + suite + "' first, found " + Arrays.toString(args));
    }
    long events = FULL_EVENTS;
    long keys = FULL_KEYS;
    long warmupEvents = WARMUP_EVENTS;
    int repeats = 1;
    List<String> workloads = List.of(E2eWorkload.Kind.INSERT_ONLY.optionName(), E2eWorkload.Kind.MIXED_UNIFORM.optionName());
    List<Integer> tasks = List.of(1, 4);
    List<String> sinks = ALL_SINKS;
    long commitInterval = DEFAULT_COMMIT_INTERVAL_MS;
    int batchSize = DEFAULT_JDBC_BATCH_SIZE;
    Path directory = null;
    for (String arg : Arrays.copyOfRange(args, 1, args.length)) {
      String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "";
      if (arg.equals("--quick")) {
        events = QUICK_EVENTS;
        keys = QUICK_KEYS;
        warmupEvents = QUICK_WARMUP_EVENTS;
      } else if (arg.startsWith("--events=")) {
        events = Long.parseLong(value);
      } else if (arg.startsWith("--keys=")) {
        keys = Long.parseLong(value);
      } else if (arg.startsWith("--warmup-events=")) {
        warmupEvents = Long.parseLong(value);
      } else if (arg.startsWith("--repeats=")) {
        repeats = Integer.parseInt(value);
      } else if (arg.startsWith("--commit-interval-ms=")) {
        commitInterval = Long.parseLong(value);
      } else if (arg.startsWith("--jdbc-batch-size=")) {
        batchSize = Integer.parseInt(value);
      } else if (arg.startsWith("--dir=")) {
        directory = Path.of(value);
      } else if (arg.startsWith("--tasks=")) {
        tasks = list(value).stream().map(Integer::valueOf).toList();
      } else if (arg.startsWith("--only=")) {
        workloads = list(value);
        workloads.forEach(E2eWorkload.Kind::of);
      } else if (arg.startsWith("--sinks=")) {
        sinks = list(value);
        for (String sink : sinks) {
          if (!ALL_SINKS.contains(sink)) {
            throw new IllegalArgumentException("unknown sink '" + sink + "', expected some of " + ALL_SINKS);
          }
        }
      } else {
        throw new IllegalArgumentException("unknown argument '" + arg + "'");
      }
    }
    return new PeersOptions(events, keys, warmupEvents, repeats, workloads, tasks, sinks, commitInterval, batchSize, directory);
  }

  private static List<String> list(String value) {
    return Arrays.stream(value.split(",")).map(String::trim).toList();
  }
}
