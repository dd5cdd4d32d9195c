package io.mergesink.cli;

import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.snapshot.Snapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;

/**
 * {@code mergesink offsets TABLE}: the Kafka offsets stored in the table, one {@code txn} per
 * partition ({@code <app id>:<topic>:<partition>} → the last offset the table accounts for).
 */
@Command(name = "offsets", description = "List the txn app ids (one per Kafka partition) and their versions (last offsets).")
final class OffsetsCommand extends TableCommand {
  @Override
  void run(PrintWriter out) throws IOException {
    Snapshot snapshot = snapshot();
    List<Map<String, Object>> txns = new ArrayList<>();
    for (SetTransaction txn : new TreeMap<>(snapshot.transactions()).values()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("appId", txn.appId());
      entry.put("version", txn.version());
      entry.put("lastUpdated", txn.lastUpdated() == null ? null : Instant.ofEpochMilli(txn.lastUpdated()).toString());
      txns.add(entry);
    }
    if (json) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("tableVersion", snapshot.version());
      result.put("txns", txns);
      printJson(out, result);
      return;
    }
    out.printf("%-40s %12s  %s%n", "APP ID", "VERSION", "LAST UPDATED");
    for (Map<String, Object> txn : txns) {
      out.printf("%-40s %12s  %s%n", txn.get("appId"), txn.get("version"), txn.get("lastUpdated") == null ? "" : txn.get("lastUpdated"));
    }
  }
}
