package io.mergesink.bench;

import java.util.ArrayList;
import java.util.List;

/** Collects {@link Result}s and renders them as a Markdown table. */
final class ResultTable {
  private final List<Result> results = new ArrayList<>();

  void add(Result result) {
    results.add(result);
    System.err.println("[bench] " + result.metric() + ": " + result.values() + (result.ratio().isEmpty() ? "" : " ratio " + result.ratio()));
  }

  String toMarkdown() {
    StringBuilder out = new StringBuilder();
    out.append("| metric | value (median, min–max, n) | ratio | target | |\n");
    out.append("|---|---|---|---|---|\n");
    for (Result result : results) {
      out.append("| ").append(result.metric())
          .append(" | ").append(result.values())
          .append(" | ").append(result.ratio())
          .append(" | ").append(result.target())
          .append(" | ").append(result.verdict())
          .append(" |\n");
    }
    return out.toString();
  }
}
