package io.mergesink.quickstart;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo's closing report: where the table is, its version and rows against the source's, the
 * Kafka offsets recorded in it, a sample of rows, and how to read it with Spark (and DuckDB for Delta).
 */
final class Summary {
  private final Progress progress;

  Summary(Progress progress) {
    this.progress = progress;
  }

  /**
   * @param location where the table is; for a table in an object store the summary names a local
   *     copy (the server stops with the demo)
   */
  void print(DemoResult result, String sourceTable, TableReader reader, List<List<String>> sample,
      TableLocation location) {
    String tableUri = result.table();
    TableState state = result.state();
    String format = reader.format();
    progress.plain("");
    progress.plain("== MergeSink quickstart: summary ==");
    progress.plain(String.format("%-15s %s", format + " table:", tableUri));
    progress.plain(String.format("%-15s %s", format + " version:", state.version()));
    progress.plain("Rows:           " + state.rows() + " (" + sourceTable + ": " + result.sourceRows() + " rows)"
        + (result.caughtUp() && state.rows() == result.sourceRows() ? " - match" : ""));
    progress.plain("Kafka offsets recorded in the table (" + reader.positionsRecordedAs() + "):");
    for (Map.Entry<Integer, Long> end : result.endOffsets().entrySet()) {
      Long committed = state.committedOffsets().get(end.getKey());
      progress.plain("  " + ChangeSource.TOPIC + "-" + end.getKey() + ": committed through offset "
          + (committed == null ? "none" : committed) + " (topic end offset " + end.getValue() + ")");
    }
    if (!result.caughtUp()) {
      progress.plain("  (the sink had not committed every event when the demo ended)");
    }
    if (!sample.isEmpty()) {
      progress.plain("Sample (" + (sample.size() - 1) + " of " + state.rows() + " rows, by id):");
      table(sample).forEach(line -> progress.plain("  " + line));
    }
    String path = tableUri;
    java.nio.file.Path localCopy = location.localCopyOf(ConnectorConfigs.ORDERS_TABLE);
    if (localCopy != null) {
      path = localCopy.toString();
      progress.plain("");
      location.localCopyNote(localCopy).forEach(progress::plain);
    }
    progress.plain("");
    reader.howToRead(path).forEach(progress::plain);
    progress.plain("");
  }

  /** Left-aligned columns separated by " | ", a rule under the header line. */
  private static List<String> table(List<List<String>> lines) {
    int columns = lines.get(0).size();
    int[] widths = new int[columns];
    for (List<String> line : lines) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], line.get(i).length());
      }
    }
    List<String> out = new ArrayList<>();
    for (List<String> line : lines) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        text.append(i == 0 ? "" : " | ").append(String.format("%-" + widths[i] + "s", line.get(i)));
      }
      out.add(text.toString().stripTrailing());
      if (out.size() == 1) {
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < columns; i++) {
          rule.append(i == 0 ? "" : "-+-").append("-".repeat(widths[i]));
        }
        out.add(rule.toString());
      }
    }
    return out;
  }
}
