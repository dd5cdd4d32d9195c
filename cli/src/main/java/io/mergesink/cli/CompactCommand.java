package io.mergesink.cli;

import io.mergesink.core.maintenance.CompactionBin;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.CompactionPlan;
import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.maintenance.CompactionRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mergesink compact TABLE}: bin-packs small files and rewrites DV-dense files without their
 * deleted rows, as one {@code OPTIMIZE} commit. Safe while a sink writes the table. An Iceberg
 * table gets one run of the sink's own maintenance (the format's compaction: a {@code replace}
 * snapshot that carries the positions forward, then snapshot expiry).
 */
@Command(name = "compact", description = "Bin-pack small files and purge dense deletion vectors (an OPTIMIZE commit; Iceberg: a replace"
    + " snapshot, then snapshot expiry; safe while the sink writes).")
final class CompactCommand extends TableCommand {
  @Option(names = "--target-size", paramLabel = "SIZE", defaultValue = "128MiB", description = "Target file size (default ${DEFAULT-VALUE}).")
  String targetSize;

  @Option(names = "--min-files", defaultValue = "" + CompactionOptions.DEFAULT_MIN_SMALL_FILES,
      description = "Bin-pack a partition/tag group once it has this many small files (default ${DEFAULT-VALUE}).")
  int minFiles;

  @Option(names = "--dv-ratio", defaultValue = "" + CompactionOptions.DEFAULT_DELETED_RATIO,
      description = "Rewrite files with a larger deleted fraction (default ${DEFAULT-VALUE}).")
  double dvRatio;

  @Option(names = "--max-bytes", paramLabel = "SIZE", defaultValue = "1GiB",
      description = "Input bytes to rewrite in this run (default ${DEFAULT-VALUE}; Delta tables only).")
  String maxBytes;

  @Option(names = "--dry-run", description = "Print the plan and change nothing (Delta tables only).")
  boolean dryRun;

  @Override
  void run(PrintWriter out) throws IOException {
    CompactionOptions options = CompactionOptions.defaults()
        .withTargetFileSizeBytes(Sizes.parse(targetSize))
        .withMinSmallFiles(minFiles)
        .withDeletedRatio(dvRatio)
        .withBudget(Sizes.parse(maxBytes), CompactionOptions.DEFAULT_MAX_FILES_PER_RUN, Duration.ofDays(1));
    Compactor compactor = new Compactor(storage(), options);
    Snapshot snapshot = snapshot();
    Map<String, Object> result = dryRun ? plan(compactor.plan(snapshot)) : result(compactor.compact(snapshot));
    if (json) {
      printJson(out, result);
      return;
    }
    if (dryRun) {
      out.printf("would rewrite %s files (%s) in %s bins; %s bins left for later runs%n", result.get("inputFiles"),
          Sizes.format((Long) result.get("inputBytes")), ((List<?>) result.get("bins")).size(), result.get("deferredBins"));
      return;
    }
    print(out, result);
  }

  private static void print(PrintWriter out, Map<String, Object> result) {
    switch ((String) result.get("outcome")) {
      case "compacted" -> out.printf("compacted %s files (%s) into %s files (%s) at version %s; %s deleted rows purged, %s rows kept%n",
          result.get("filesRemoved"), Sizes.format((Long) result.get("bytesRemoved")), result.get("filesAdded"),
          Sizes.format((Long) result.get("bytesAdded")), result.get("version"), result.get("rowsPurged"), result.get("rowsWritten"));
      case "nothing-to-compact" -> out.printf("nothing to compact at version %s%n", result.get("version"));
      default -> out.printf("gave way to concurrent writers after %s attempts: %s%n", result.get("attempts"), result.get("reason"));
    }
  }

  /**
   * The sink's maintenance of an Iceberg table with a key, run once: files whose deletes hide at
   * least {@code --dv-ratio} of their rows, and {@code --min-files} or more files of a partition below
   * {@code --target-size}, rewritten in one commit; then expired snapshots removed.
   */
  @Override
  void runIceberg(PrintWriter out) throws IOException {
    if (dryRun || spec.commandLine().getParseResult().hasMatchedOption("--max-bytes")) {
      throw new IllegalArgumentException((dryRun ? "--dry-run" : "--max-bytes") + " applies to Delta tables; " + tablePath
          + " is an Iceberg table, whose compaction plans and rewrites in one run");
    }
    long targetSizeBytes = Sizes.parse(targetSize);
    try (IcebergTableRef.Opened opened = openIceberg(options -> options.compaction(true, dvRatio, minFiles)
        .fileTargetSizeBytes(targetSizeBytes))) {
      FormatTable table = opened.table();
      if (table.recordedKey().isEmpty()) {
        throw new IllegalArgumentException("Iceberg table " + table.location() + " has no identifier fields: the sink compacts"
            + " the tables it upserts by key; compact an append table with Spark's rewrite_data_files");
      }
      Set<Long> snapshotsBefore = snapshotIds(opened.iceberg());
      table.followWriter();
      Optional<CompactionRun> run = opened.iceberg().currentSnapshot() == null ? Optional.empty() : table.compaction();
      Map<String, Object> result = run.isPresent() ? result(run.get().compact())
          : result(new CompactionResult.NothingToCompact(table.version()));
      opened.iceberg().refresh();
      snapshotsBefore.removeAll(snapshotIds(opened.iceberg()));
      result.put("snapshotsExpired", snapshotsBefore.size());
      if (json) {
        printJson(out, result);
        return;
      }
      print(out, result);
      out.printf("expired %s snapshots%n", result.get("snapshotsExpired"));
    }
  }

  private static Set<Long> snapshotIds(Table table) {
    Set<Long> ids = new HashSet<>();
    table.snapshots().forEach(snapshot -> ids.add(snapshot.snapshotId()));
    return ids;
  }

  private static Map<String, Object> plan(CompactionPlan plan) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("outcome", "dry-run");
    map.put("version", plan.snapshotVersion());
    map.put("inputFiles", plan.inputFiles());
    map.put("inputBytes", plan.inputBytes());
    map.put("deferredBins", plan.deferredBins());
    List<Map<String, Object>> bins = new ArrayList<>();
    for (CompactionBin bin : plan.bins()) {
      Map<String, Object> b = new LinkedHashMap<>();
      b.put("partitionValues", bin.partitionValues());
      b.put("tags", bin.tags());
      b.put("files", bin.files().stream().map(f -> f.path()).toList());
      b.put("inputBytes", bin.inputBytes());
      b.put("deletedRows", bin.deletedRows());
      bins.add(b);
    }
    map.put("bins", bins);
    return map;
  }

  private static Map<String, Object> result(CompactionResult result) {
    Map<String, Object> map = new LinkedHashMap<>();
    if (result instanceof CompactionResult.Compacted c) {
      map.put("outcome", "compacted");
      map.put("version", c.version());
      map.put("filesRemoved", c.filesRemoved());
      map.put("filesAdded", c.filesAdded());
      map.put("rowsWritten", c.rowsWritten());
      map.put("rowsPurged", c.rowsPurged());
      map.put("bytesRemoved", c.bytesRemoved());
      map.put("bytesAdded", c.bytesAdded());
      map.put("deferredBins", c.deferredBins());
      map.put("replans", c.replans());
    } else if (result instanceof CompactionResult.NothingToCompact n) {
      map.put("outcome", "nothing-to-compact");
      map.put("version", n.version());
    } else if (result instanceof CompactionResult.GaveWay g) {
      map.put("outcome", "gave-way");
      map.put("attempts", g.attempts());
      map.put("reason", g.lastReason());
    }
    return map;
  }
}
