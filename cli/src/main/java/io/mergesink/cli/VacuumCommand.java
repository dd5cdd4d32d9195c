package io.mergesink.cli;

import io.mergesink.core.maintenance.Retention;
import io.mergesink.core.maintenance.Vacuum;
import io.mergesink.core.maintenance.VacuumPlan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.ingest.format.iceberg.OrphanFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mergesink vacuum TABLE}: deletes data and DV files no version within the retention
 * references, including orphans of crashed writers; on an Iceberg table, its orphan files.
 * {@code --dry-run} lists exactly those files.
 */
@Command(name = "vacuum", description = "Delete data and DV files no retained version references (including crash orphans).")
final class VacuumCommand extends TableCommand {
  @Option(names = "--retain-hours", paramLabel = "HOURS",
      description = "Keep files removed (or written) within this many hours (default: the table's delta.deletedFileRetentionDuration, 1 week).")
  Long retainHours;

  @Option(names = "--dry-run", description = "List the files that would be deleted and delete nothing.")
  boolean dryRun;

  @Option(names = "--force", description = "Allow a retention shorter than the table's delta.deletedFileRetentionDuration. "
      + "Files of commits in flight and of readers still on old versions may then be deleted.")
  boolean force;

  /**
   * On an Iceberg table: deletes its orphan files, those no metadata of the table references, older than
   * the retention (default and minimum without {@code --force}: 3 days, as Iceberg's own actions).
   * Snapshots are expired by {@code compact}.
   */
  @Override
  void runIceberg(PrintWriter out) throws IOException {
    Duration retention = retainHours == null ? OrphanFiles.MIN_AGE : Duration.ofHours(retainHours);
    if (retention.isNegative()) {
      throw new IllegalArgumentException("--retain-hours must be >= 0, found " + retainHours);
    }
    if (retention.compareTo(OrphanFiles.MIN_AGE) < 0 && !force) {
      throw new IllegalArgumentException("a retention of " + retention.toHours() + " hours is shorter than "
          + OrphanFiles.MIN_AGE.toHours() + " hours; pass --force if no writer has a commit in flight");
    }
    long cutoff = System.currentTimeMillis() - retention.toMillis();
    try (IcebergTableRef.Opened opened = openIceberg()) {
      List<String> orphans = OrphanFiles.find(opened.iceberg(), cutoff);
      if (!dryRun) {
        OrphanFiles.delete(opened.iceberg(), orphans);
      }
      if (json) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("dryRun", dryRun);
        result.put("retentionHours", retention.toHours());
        result.put("cutoff", Instant.ofEpochMilli(cutoff).toString());
        result.put("files", orphans);
        result.put("deleted", dryRun ? 0 : orphans.size());
        printJson(out, result);
        return;
      }
      orphans.forEach(orphan -> out.println((dryRun ? "would delete " : "deleted ") + orphan));
      out.printf("%s %d orphan files older than %s%n", dryRun ? "would delete" : "deleted", orphans.size(), Instant.ofEpochMilli(cutoff));
    }
  }

  @Override
  void run(PrintWriter out) throws IOException {
    Snapshot snapshot = snapshot();
    Duration tableRetention = Retention.deletedFiles(snapshot.metadata());
    Duration retention = retainHours == null ? tableRetention : Duration.ofHours(retainHours);
    if (retention.isNegative()) {
      throw new IllegalArgumentException("--retain-hours must be >= 0, found " + retainHours);
    }
    if (retention.compareTo(tableRetention) < 0 && !force) {
      throw new IllegalArgumentException("a retention of " + retention.toHours() + " hours is shorter than the table's "
          + "delta.deletedFileRetentionDuration (" + tableRetention.toHours() + " hours); pass --force if no writer or reader needs those files");
    }
    Vacuum vacuum = new Vacuum(storage());
    VacuumPlan plan = vacuum.plan(snapshot, retention, System.currentTimeMillis());
    int deleted = dryRun ? 0 : vacuum.execute(plan);
    List<Map<String, Object>> files = new ArrayList<>();
    for (Storage.FileInfo file : plan.files()) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("path", file.name());
      f.put("size", file.size());
      f.put("modificationTime", Instant.ofEpochMilli(file.modificationTime()).toString());
      files.add(f);
    }
    if (json) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("dryRun", dryRun);
      result.put("version", plan.snapshotVersion());
      result.put("retentionHours", retention.toHours());
      result.put("cutoff", Instant.ofEpochMilli(plan.cutoffMillis()).toString());
      result.put("referencedFiles", plan.referencedFiles());
      result.put("files", files);
      result.put("bytes", plan.bytes());
      result.put("deleted", deleted);
      printJson(out, result);
      return;
    }
    for (Map<String, Object> file : files) {
      out.println((dryRun ? "would delete " : "deleted ") + file.get("path"));
    }
    out.printf("%s %d files (%s) older than %s not referenced by version %d%n", dryRun ? "would delete" : "deleted",
        dryRun ? plan.files().size() : deleted, Sizes.format(plan.bytes()), Instant.ofEpochMilli(plan.cutoffMillis()), plan.snapshotVersion());
  }
}
