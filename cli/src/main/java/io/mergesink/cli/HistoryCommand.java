package io.mergesink.cli;

import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.RemoveFile;
import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.snapshot.TableNotFoundException;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mergesink history TABLE}: the commits still in the log (of an Iceberg table: the snapshots
 * of its current state, {@link IcebergHistory}; of a Paimon table: its snapshots not yet expired,
 * {@link PaimonHistory}), newest first, with their operation, files and rows
 * added and removed, and the Kafka offsets ({@code txn}s, positions) they moved.
 */
@Command(name = "history", description = "List the table's commits (Iceberg, Paimon: snapshots), newest first: operation, files and rows added/removed, offsets.")
final class HistoryCommand extends TableCommand {
  @Option(names = {"-n", "--limit"}, defaultValue = "20", description = "Show at most this many commits (default ${DEFAULT-VALUE}).")
  int limit;

  @Override
  void run(PrintWriter out) throws IOException {
    print(out, history(storage(), table().root(), limit));
  }

  @Override
  void runIceberg(PrintWriter out) throws IOException {
    try (IcebergTableRef.Opened opened = openIceberg()) {
      print(out, IcebergHistory.of(opened.iceberg(), limit));
    }
  }

  @Override
  void runPaimon(PrintWriter out) throws IOException {
    try (PaimonTableRef.Opened opened = openPaimon()) {
      print(out, PaimonHistory.of(opened.paimon(), limit));
    }
  }

  private void print(PrintWriter out, List<Map<String, Object>> entries) throws IOException {
    if (json) {
      printJson(out, entries);
      return;
    }
    out.printf("%-8s %-24s %-16s %7s %7s %9s %9s  %s%n", "VERSION", "TIMESTAMP", "OPERATION", "+FILES", "-FILES", "+ROWS", "-ROWS",
        "OFFSETS");
    for (Map<String, Object> e : entries) {
      out.printf("%-8s %-24s %-16s %7s %7s %9s %9s  %s%n", e.get("version"), e.get("timestamp") == null ? "" : e.get("timestamp"),
          e.get("operation") == null ? "" : e.get("operation"), e.get("filesAdded"), e.get("filesRemoved"), orBlank(e.get("rowsAdded")),
          orBlank(e.get("rowsRemoved")), offsets(e));
    }
  }

  static List<Map<String, Object>> history(Storage storage, String root, int limit) throws IOException {
    TreeSet<Long> versions = new TreeSet<>();
    for (Storage.FileInfo file : storage.listFrom(LogPaths.logDir(root), "")) {
      OptionalLong version = LogPaths.commitVersion(file.name());
      version.ifPresent(versions::add);
    }
    if (versions.isEmpty()) {
      throw new TableNotFoundException(root);
    }
    SnapshotLoader loader = new SnapshotLoader(storage);
    List<Map<String, Object>> entries = new ArrayList<>();
    for (Long version : versions.descendingSet()) {
      if (entries.size() >= limit) {
        break;
      }
      entries.add(entry(version, loader.readCommit(root, version)));
    }
    return entries;
  }

  private static Map<String, Object> entry(long version, List<Action> actions) {
    CommitInfo info = null;
    int added = 0;
    int removed = 0;
    long addedRows = 0;
    boolean rowsKnown = true;
    Map<String, Long> txns = new LinkedHashMap<>();
    for (Action action : actions) {
      if (action instanceof CommitInfo commitInfo) {
        info = commitInfo;
      } else if (action instanceof AddFile add) {
        added++;
        if (add.numRecords() == AddFile.UNKNOWN_RECORDS) {
          rowsKnown = false;
        } else if (add.deletionVector() == null) {
          addedRows += add.numRecords();
        }
      } else if (action instanceof RemoveFile) {
        removed++;
      } else if (action instanceof SetTransaction txn) {
        txns.put(txn.appId(), txn.version());
      }
    }
    Map<String, Object> metrics = metrics(info);
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("version", version);
    e.put("timestamp", info == null || info.timestamp() == null ? null : Instant.ofEpochMilli(info.timestamp()).toString());
    e.put("operation", info == null ? null : info.operation());
    e.put("filesAdded", added);
    e.put("filesRemoved", removed);
    e.put("rowsAdded", metric(metrics, "numOutputRows", rowsKnown ? addedRows : null));
    e.put("rowsRemoved", metric(metrics, "numDeletedRows", null));
    e.put("offsets", txns);
    e.put("operationMetrics", metrics);
    return e;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metrics(CommitInfo info) {
    Object metrics = info == null ? null : info.values().get("operationMetrics");
    return metrics instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
  }

  private static Long metric(Map<String, Object> metrics, String name, Long fallback) {
    Object value = metrics.get(name);
    if (value instanceof Number n) {
      return n.longValue();
    }
    if (value instanceof String s) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        return fallback;
      }
    }
    return fallback;
  }

  private static String orBlank(Object value) {
    return value == null ? "" : value.toString();
  }

  /** The offsets the commit moved, then the tags of an Iceberg snapshot in brackets. */
  @SuppressWarnings("unchecked")
  private static String offsets(Map<String, Object> entry) {
    Map<String, Long> txns = (Map<String, Long>) entry.get("offsets");
    List<String> parts = new ArrayList<>();
    txns.forEach((appId, version) -> parts.add(appId + "=" + version));
    Map<String, String> tags = (Map<String, String>) entry.getOrDefault("tags", Map.of());
    tags.forEach((name, value) -> parts.add("[" + name + "=" + value + "]"));
    return String.join(" ", parts);
  }
}
