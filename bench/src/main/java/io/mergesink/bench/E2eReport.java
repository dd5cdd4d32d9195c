package io.mergesink.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The e2e suite's results and their Markdown tables. */
final class E2eReport {
  private static final double MIB = 1024 * 1024;

  /** What a throughput run measures. */
  record Case(E2eWorkload.Kind kind, RecordFormat format, int tasks) {}

  /**
   * One throughput run. Heap figures are of the whole JVM (broker, worker, producer, tasks).
   *
   * @param commits table commits during the measured catch-up, all tasks
   * @param commitP50Ms the JMX {@code commit-latency-p50-ms} of the slowest task at the end of the run
   *     (its metrics window may still hold the priming commits)
   * @param bytesPerEvent Kafka key + value bytes per change event
   */
  record Run(double eventsPerSecond, double seconds, long peakHeap, long settledHeap, double commits, double commitP50Ms,
      double bytesPerEvent) {}

  /**
   * One latency run.
   *
   * @param commitP50Ms the JMX {@code commit-latency-p50-ms} of the slowest task, over the fixed-rate phase
   * @param commitP99Ms likewise {@code commit-latency-p99-ms}
   * @param commits table commits during the fixed-rate phase, all tasks
   */
  record LatencyRun(RecordFormat format, int tasks, E2eLatency.Latency latency, double commitP50Ms, double commitP99Ms, double commits) {}

  private final E2eOptions options;
  private final Map<Case, List<Run>> runs = new LinkedHashMap<>();
  private final List<LatencyRun> latencies = new ArrayList<>();

  E2eReport(E2eOptions options) {
    this.options = options;
  }

  void add(Case key, Run run) {
    runs.computeIfAbsent(key, k -> new ArrayList<>()).add(run);
  }

  void add(LatencyRun run) {
    latencies.add(run);
  }

  String toMarkdown() {
    List<String> tables = new ArrayList<>();
    if (!runs.isEmpty()) {
      tables.add(throughput());
      if (options.tasks().size() == 2) {
        tables.add(taskRatios());
      }
      if (options.formats().size() >= 2) {
        tables.add(formatRatios());
      }
    }
    if (!latencies.isEmpty()) {
      tables.add(latency());
    }
    return String.join("\n", tables);
  }

  private String throughput() {
    StringBuilder out = new StringBuilder("| workload | format | tasks | events/s (median, min–max, n) | catch-up s | commits "
        + "| commit p50 ms (JMX) | bytes/event | peak heap MiB | settled heap MiB |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (Case key : cases()) {
      List<Run> list = runs.get(key);
      out.append(String.format("| %s | %s | %d | %s | %.1f | %.0f | %.0f | %.0f | %,.0f | %,.0f |%n", key.kind().label(), key.format().label(),
          key.tasks(), samples(list, Run::eventsPerSecond).describe("%,.0f", "").replace("  ", " "), samples(list, Run::seconds).median(),
          samples(list, Run::commits).median(), samples(list, Run::commitP50Ms).median(), samples(list, Run::bytesPerEvent).median(),
          samples(list, run -> run.peakHeap() / MIB).median(), samples(list, run -> run.settledHeap() / MIB).median()));
    }
    return out.toString();
  }

  private String taskRatios() {
    int one = options.tasks().get(0);
    int two = options.tasks().get(1);
    StringBuilder out = new StringBuilder("| workload | format | events/s ratio " + two + " tasks / " + one
        + " task (per-repeat ratio: median, min–max, n) |\n|---|---|---|\n");
    for (E2eWorkload.Kind kind : kinds()) {
      for (RecordFormat format : options.formats()) {
        out.append("| ").append(kind.label()).append(" | ").append(format.label()).append(" | ")
            .append(ratio(new Case(kind, format, two), new Case(kind, format, one))).append(" |\n");
      }
    }
    return out.toString();
  }

  /** Each format's events/s against the first format's ({@code json}: JsonConverter), per repeat. */
  private String formatRatios() {
    RecordFormat first = options.formats().get(0);
    List<RecordFormat> others = options.formats().subList(1, options.formats().size());
    StringBuilder out = new StringBuilder("| workload | tasks |");
    others.forEach(format -> out.append(" events/s ratio ").append(format.label()).append(" / ").append(first.label())
        .append(" (per-repeat ratio: median, min–max, n) |"));
    out.append("\n|---|---|").append("---|".repeat(others.size())).append("\n");
    for (E2eWorkload.Kind kind : kinds()) {
      for (int tasks : options.tasks()) {
        out.append("| ").append(kind.label()).append(" | ").append(tasks).append(" |");
        for (RecordFormat format : others) {
          out.append(" ").append(ratio(new Case(kind, format, tasks), new Case(kind, first, tasks))).append(" |");
        }
        out.append("\n");
      }
    }
    return out.toString();
  }

  private String latency() {
    StringBuilder out = new StringBuilder(String.format("| format | tasks | produce → visible in Delta at %,.0f events/s (p50 / p99 / max ms) "
        + "| achieved events/s | events | commit latency p50 / p99 ms (JMX, slowest task) | commits |%n|---|---|---|---|---|---|---|%n",
        options.latencyRate()));
    for (LatencyRun run : latencies) {
      E2eLatency.Latency latency = run.latency();
      out.append(String.format("| %s | %d | %.0f / %.0f / %.0f | %,.0f | %,d | %.0f / %.0f | %.0f |%n", run.format().label(), run.tasks(),
          latency.p50Ms(), latency.p99Ms(), latency.maxMs(), latency.achievedRate(), latency.samples(), run.commitP50Ms(),
          run.commitP99Ms(), run.commits()));
    }
    return out.toString();
  }

  /** Per-repeat events/s ratios of {@code numerator} to {@code denominator}. */
  private String ratio(Case numerator, Case denominator) {
    List<Run> top = runs.get(numerator);
    List<Run> bottom = runs.get(denominator);
    double[] ratios = new double[top.size()];
    for (int i = 0; i < ratios.length; i++) {
      ratios[i] = top.get(i).eventsPerSecond() / bottom.get(i).eventsPerSecond();
    }
    return Samples.of(ratios).describe("%.2f", "×");
  }

  private List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (E2eWorkload.Kind kind : kinds()) {
      for (RecordFormat format : options.formats()) {
        for (int tasks : options.tasks()) {
          cases.add(new Case(kind, format, tasks));
        }
      }
    }
    return cases;
  }

  private List<E2eWorkload.Kind> kinds() {
    return options.throughputWorkloads().stream().map(E2eWorkload.Kind::of).toList();
  }

  private static Samples samples(List<Run> runs, ToDoubleFunction<Run> value) {
    return Samples.of(runs.stream().mapToDouble(value).toArray());
  }
}
