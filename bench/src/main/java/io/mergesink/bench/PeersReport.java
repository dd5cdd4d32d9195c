package io.mergesink.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The peers suite's results: one row per workload, task count and sink, with MergeSink's multiples of each sink per repeat. */
final class PeersReport {
  /** What a run measures. */
  record Case(String workload, int tasks, String sink) {}

  /**
   * One run.
   *
   * @param putBatchMs Connect's {@code put-batch-avg-time-ms} of the slowest task (the time of one {@code put} call)
   * @param offsetCommitMs Connect's {@code offset-commit-avg-time-ms} of the slowest task (the flush before offsets commit)
   * @param check what the final-table check established
   */
  record Run(double eventsPerSecond, double seconds, double putBatchMs, double offsetCommitMs, String check) {}

  private final PeersOptions options;
  private final Map<String, String> labels;
  private final Map<Case, List<Run>> runs = new LinkedHashMap<>();

  PeersReport(PeersOptions options, Map<String, String> labels) {
    this.options = options;
    this.labels = labels;
  }

  void add(Case key, Run run) {
    runs.computeIfAbsent(key, k -> new ArrayList<>()).add(run);
  }

  String toMarkdown() {
    List<String> references = options.sinks().stream().filter(sink -> sink.startsWith("mergesink-upsert")).toList();
    StringBuilder out = new StringBuilder("| workload | tasks | sink | events/s (median, min–max, n) |");
    references.forEach(reference -> out.append(" ").append(labels.get(reference)).append(" ÷ this (per repeat) |"));
    out.append(" put batch avg ms | offset commit avg ms | catch-up s | final table |\n|---|---|---|---|")
        .append("---|".repeat(references.size())).append("---|---|---|---|\n");
    for (String workload : options.workloads()) {
      for (int tasks : options.tasks()) {
        for (String sink : options.sinks()) {
          List<Run> list = runs.get(new Case(workload, tasks, sink));
          if (list == null) {
            continue;
          }
          out.append(String.format("| %s | %d | %s | %s |", E2eWorkload.Kind.of(workload).label(), tasks, labels.get(sink),
              samples(list.stream().mapToDouble(Run::eventsPerSecond).toArray()).describe("%,.0f", "").replace("  ", " ")));
          for (String reference : references) {
            out.append(" ").append(ratio(runs.get(new Case(workload, tasks, reference)), list)).append(" |");
          }
          out.append(String.format(" %.0f | %.0f | %.1f | %s |%n", samples(list.stream().mapToDouble(Run::putBatchMs).toArray()).median(),
              samples(list.stream().mapToDouble(Run::offsetCommitMs).toArray()).median(),
              samples(list.stream().mapToDouble(Run::seconds).toArray()).median(), list.get(list.size() - 1).check()));
        }
      }
    }
    return out.toString();
  }

  private static String ratio(List<Run> top, List<Run> bottom) {
    if (top == null) {
      return "";
    }
    int n = Math.min(top.size(), bottom.size());
    double[] ratios = new double[n];
    for (int i = 0; i < n; i++) {
      ratios[i] = top.get(i).eventsPerSecond() / bottom.get(i).eventsPerSecond();
    }
    return samples(ratios).describe("%.2f", "×");
  }

  private static Samples samples(double[] values) {
    return Samples.of(values.length == 0 ? new double[] {Double.NaN} : values);
  }
}
