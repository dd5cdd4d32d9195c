package io.mergesink.cli;

import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.ingest.format.iceberg.SnapshotPositions;
import io.mergesink.ingest.format.paimon.PaimonSnapshotProperties;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.paimon.utils.SnapshotManager;
import picocli.CommandLine.Command;

/**
 * {@code mergesink offsets TABLE}: the Kafka offsets stored in the table, one per partition
 * ({@code <app id>:<topic>:<partition>} → the last offset the table accounts for): a Delta table's
 * {@code txn}s, an Iceberg table's positions in its snapshot summaries, a Paimon table's in its
 * snapshot properties.
 */
@Command(name = "offsets", description = "List the txn app ids / Iceberg and Paimon position ids (one per Kafka partition) and their versions (last offsets).")
final class OffsetsCommand extends TableCommand {
  @Override
  void run(PrintWriter out) throws IOException {
    Snapshot snapshot = snapshot();
    List<Map<String, Object>> txns = new ArrayList<>();
    for (SetTransaction txn : new TreeMap<>(snapshot.transactions()).values()) {
      txns.add(entry(txn.appId(), txn.version(), txn.lastUpdated()));
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("tableVersion", snapshot.version());
    result.put("txns", txns);
    print(out, result);
  }

  /** The positions of the newest snapshot that records any, each with the time of the snapshot that moved it there. */
  @Override
  void runIceberg(PrintWriter out) throws IOException {
    try (IcebergTableRef.Opened opened = openIceberg()) {
      Map<String, Long> since = movedAt(opened.iceberg());
      List<Map<String, Object>> txns = new ArrayList<>();
      for (String id : new TreeMap<>(since).keySet()) {
        txns.add(entry(id, opened.table().position(id).orElseThrow(), since.get(id)));
      }
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("tableVersion", opened.table().version());
      result.put("snapshotId", opened.iceberg().currentSnapshot() == null ? null : opened.iceberg().currentSnapshot().snapshotId());
      result.put("txns", txns);
      print(out, result);
    }
  }

  /** The positions of the newest snapshot that records any, each with the time of the snapshot that moved it there. */
  @Override
  void runPaimon(PrintWriter out) throws IOException {
    try (PaimonTableRef.Opened opened = openPaimon()) {
      Map<String, Long> since = movedAt(opened.paimon().snapshotManager());
      List<Map<String, Object>> txns = new ArrayList<>();
      for (String id : new TreeMap<>(since).keySet()) {
        txns.add(entry(id, opened.table().position(id).orElseThrow(), since.get(id)));
      }
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("tableVersion", opened.table().version());
      result.put("txns", txns);
      print(out, result);
    }
  }

  /**
   * Position id → the time of the oldest Paimon snapshot from which on the position holds its
   * current offset (snapshots that record no positions, of other writers, skipped).
   */
  private static Map<String, Long> movedAt(SnapshotManager snapshots) {
    Long latest = snapshots.latestSnapshotId();
    Long earliest = snapshots.earliestSnapshotId();
    Map<String, Long> current = null;
    Map<String, Long> since = new HashMap<>();
    Set<String> holding = new HashSet<>();
    for (long id = latest == null ? 0 : latest; latest != null && earliest != null && id >= earliest; id--) {
      Map<String, Long> recorded = snapshots.snapshotExists(id) ? PaimonSnapshotProperties.positions(snapshots.snapshot(id)) : Map.of();
      if (recorded.isEmpty()) {
        continue;
      }
      if (current == null) {
        current = recorded;
        holding.addAll(current.keySet());
      }
      Map<String, Long> newest = current;
      holding.removeIf(position -> !newest.get(position).equals(recorded.get(position)));
      long time = snapshots.snapshot(id).timeMillis();
      holding.forEach(position -> since.put(position, time));
      if (holding.isEmpty()) {
        break;
      }
    }
    return since;
  }

  /**
   * Position id → the time of the oldest snapshot of the current ancestry from which on the position
   * holds its current offset (snapshots that record no positions, of other engines, skipped).
   */
  private static Map<String, Long> movedAt(Table table) {
    Map<String, Long> current = SnapshotPositions.of(SnapshotUtil.currentAncestors(table));
    Map<String, Long> since = new HashMap<>();
    Set<String> holding = new HashSet<>(current.keySet());
    for (org.apache.iceberg.Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      Map<String, Long> recorded = SnapshotPositions.recordedBy(snapshot);
      if (recorded.isEmpty()) {
        continue;
      }
      holding.removeIf(id -> !current.get(id).equals(recorded.get(id)));
      holding.forEach(id -> since.put(id, snapshot.timestampMillis()));
      if (holding.isEmpty()) {
        break;
      }
    }
    return since;
  }

  private static Map<String, Object> entry(String appId, long version, Long lastUpdated) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("appId", appId);
    entry.put("version", version);
    entry.put("lastUpdated", lastUpdated == null ? null : Instant.ofEpochMilli(lastUpdated).toString());
    return entry;
  }

  @SuppressWarnings("unchecked")
  private void print(PrintWriter out, Map<String, Object> result) throws IOException {
    if (json) {
      printJson(out, result);
      return;
    }
    out.printf("%-40s %12s  %s%n", "APP ID", "VERSION", "LAST UPDATED");
    for (Map<String, Object> txn : (List<Map<String, Object>>) result.get("txns")) {
      out.printf("%-40s %12s  %s%n", txn.get("appId"), txn.get("version"), txn.get("lastUpdated") == null ? "" : txn.get("lastUpdated"));
    }
  }
}
