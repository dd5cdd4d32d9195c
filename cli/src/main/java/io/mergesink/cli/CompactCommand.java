package io.mergesink.cli;

import io.mergesink.core.maintenance.CompactionBin;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.CompactionPlan;
import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.snapshot.Snapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mergesink compact TABLE}: bin-packs small files and rewrites DV-dense files without their
 * deleted rows, as one {@code OPTIMIZE} commit. Safe while a sink writes the table.
 */
@Command(name = "compact", description = "Bin-pack small files and purge dense deletion vectors (an OPTIMIZE commit; safe while the sink writes).")
final class CompactCommand extends TableCommand {
  @Option(names = "--target-size", paramLabel = "SIZE", defaultValue = "128MiB", description = "Target file size (default ${DEFAULT-VALUE}).")
  String targetSize;

  @Option(names = "--min-files", defaultValue = "" + CompactionOptions.DEFAULT_MIN_SMALL_FILES,
      description = "Bin-pack a partition/tag group once it has this many small files (default ${DEFAULT-VALUE}).")
  int minFiles;

  @Option(names = "--dv-ratio", defaultValue = "" + CompactionOptions.DEFAULT_DELETED_RATIO,
      description = "Rewrite files with a larger deleted fraction (default ${DEFAULT-VALUE}).")
  double dvRatio;

  @Option(names = "--max-bytes", paramLabel = "SIZE", defaultValue = "1GiB", description = "Input bytes to rewrite in this run (default ${DEFAULT-VALUE}).")
  String maxBytes;

  @Option(names = "--dry-run", description = "Print the plan and change nothing.")
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
    switch ((String) result.get("outcome")) {
      case "compacted" -> out.printf("compacted %s files (%s) into %s files (%s) at version %s; %s deleted rows purged, %s rows kept%n",
          result.get("filesRemoved"), Sizes.format((Long) result.get("bytesRemoved")), result.get("filesAdded"),
          Sizes.format((Long) result.get("bytesAdded")), result.get("version"), result.get("rowsPurged"), result.get("rowsWritten"));
      case "nothing-to-compact" -> out.printf("nothing to compact at version %s%n", result.get("version"));
      default -> out.printf("gave way to concurrent writers after %s attempts: %s%n", result.get("attempts"), result.get("reason"));
    }
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
