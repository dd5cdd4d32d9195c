package io.mergesink.bench;

import io.mergesink.ingest.config.CommitOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The e2e suite's command line. The defaults make {@code e2e --repeats=3} take about 15 minutes on
 * 2 cores, 20 on a busy machine (JSON runs of 500k events catch up in 10–25 s, Avro runs in 3–7 s;
 * preloading 1M keys takes about 5 s per mixed run); {@code --quick} is a smoke test of every case
 * in about 2 minutes.
 *
 * @param events measured change events per throughput run
 * @param keys keys preloaded into the table of a mixed workload
 * @param workloads throughput workloads ({@link E2eWorkload.Kind} names) and/or {@value #LATENCY}
 * @param directory where run tables go; null for a temporary directory, removed at the end
 * @param latencyEvents change events of a latency run, produced at {@code latencyRate} per second
 * @param sinkOverrides connector options set on every run's MergeSink ({@code --buffer-max-bytes}, {@code --buffer-max-records})
 */
record E2eOptions(long events, long keys, int repeats, List<String> workloads, List<Integer> tasks, List<RecordFormat> formats,
    long commitIntervalMs, Path directory, long latencyEvents, double latencyRate, Map<String, String> sinkOverrides) {
  static final String LATENCY = "latency";
  static final String USAGE = "usage: java -Xmx8g -jar mergesink-bench.jar e2e [--quick] [--events=N] [--keys=K] [--repeats=R]"
      + " [--only=insert-only,uniform,skewed,latency] [--tasks=1,2] [--formats=json,json-fast,avro] [--commit-interval-ms=MS] [--dir=PATH]"
      + " [--latency-events=N] [--latency-rate=EVENTS_PER_S] [--buffer-max-bytes=N] [--buffer-max-records=N]";
  private static final long FULL_EVENTS = 500_000;
  private static final long FULL_KEYS = 1_000_000;
  private static final long FULL_LATENCY_EVENTS = 100_000;
  private static final double FULL_LATENCY_RATE = 5_000;
  private static final long QUICK_EVENTS = 20_000;
  private static final long QUICK_KEYS = 20_000;
  private static final long QUICK_LATENCY_EVENTS = 10_000;
  private static final double QUICK_LATENCY_RATE = 2_000;
  private static final long DEFAULT_COMMIT_INTERVAL_MS = 1_000;
  private static final double MILLIS_PER_SECOND = 1_000;

  /** The throughput workloads asked for, in the order given. */
  List<String> throughputWorkloads() {
    return workloads.stream().filter(workload -> !workload.equals(LATENCY)).toList();
  }

  /** How long a latency run produces. */
  long latencyMillis() {
    return (long) (latencyEvents / latencyRate * MILLIS_PER_SECOND);
  }

  /** The same options with {@code events} and {@code keys} divided by {@code divisor}, one repeat. */
  E2eOptions scaled(long divisor) {
    return new E2eOptions(Math.max(1, events / divisor), Math.max(1, keys / divisor), 1, workloads, tasks, formats, commitIntervalMs,
        directory, latencyEvents, latencyRate, sinkOverrides);
  }

  /**
   * @throws IllegalArgumentException an unknown or malformed argument
   */
  static E2eOptions parse(String suite, String[] args) {
    if (args.length == 0 || !args[0].equals(suite)) {
      throw new IllegalArgumentException("expected the suite name '" + suite + "' first, found " + Arrays.toString(args));
    }
    long events = FULL_EVENTS;
    long keys = FULL_KEYS;
    int repeats = 1;
    List<String> workloads = new ArrayList<>(E2eWorkload.Kind.names());
    workloads.add(LATENCY);
    long latencyEvents = FULL_LATENCY_EVENTS;
    double latencyRate = FULL_LATENCY_RATE;
    List<Integer> tasks = List.of(1, 2);
    List<RecordFormat> formats = List.of(RecordFormat.values());
    long commitInterval = DEFAULT_COMMIT_INTERVAL_MS;
    Path directory = null;
    Map<String, String> sinkOverrides = new LinkedHashMap<>();
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
      } else if (arg.startsWith("--buffer-max-bytes=")) {
        sinkOverrides.put(CommitOptions.BUFFER_MAX_BYTES, Long.toString(Long.parseLong(value)));
      } else if (arg.startsWith("--buffer-max-records=")) {
        sinkOverrides.put(CommitOptions.BUFFER_MAX_RECORDS, Long.toString(Long.parseLong(value)));
      } else if (arg.startsWith("--tasks=")) {
        tasks = list(value).stream().map(Integer::valueOf).toList();
      } else if (arg.startsWith("--formats=")) {
        formats = list(value).stream().map(RecordFormat::of).toList();
      } else if (arg.startsWith("--only=")) {
        workloads = list(value);
        for (String workload : workloads) {
          if (!workload.equals(LATENCY)) {
            E2eWorkload.Kind.of(workload);
          }
        }
      } else {
        throw new IllegalArgumentException("unknown argument '" + arg + "'");
      }
    }
    return new E2eOptions(events, keys, repeats, workloads, tasks, formats, commitInterval, directory, latencyEvents, latencyRate,
        Map.copyOf(sinkOverrides));
  }

  private static List<String> list(String value) {
    return Arrays.stream(value.split(",")).map(String::trim).toList();
  }
}
