package io.mergesink.bench;

import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Read cost of a table that many small deletion-vector commits left behind, before and after
 * compaction: full scans with
 * MergeSink's reader and with Delta Kernel (log replay and row materialization included), each
 * measured {@code scanRepetitions} times after one warm-up. Both readers must return the live key
 * count before and after; anything else stops the run.
 */
final class ScanCost {
  static final String NAME = "scan";
  private static final double UPDATE_SHARE = 0.85;
  private static final double INSERT_SHARE = 0.05;
  private static final int CHECKPOINT_INTERVAL = 100;
  private static final long SEED = 41;

  private ScanCost() {}

  static void run(Storage storage, BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    DeltaTable table = tables.create("scan", MergeStrategy.DELETION_VECTORS);
    KeySpace keys = new KeySpace(SEED);
    BenchTables.bulkLoad(table, keys, config.scanTableRows(), 1);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(CHECKPOINT_INTERVAL));
    for (int commit = 0; commit < config.scanCommits(); commit++) {
      BenchTables.commit(writer, keys.mixed(config.scanChangesPerCommit(), UPDATE_SHARE, INSERT_SHARE));
    }
    Snapshot before = table.snapshot();
    long deletionVectors = before.files().values().stream().filter(file -> file.deletionVector() != null).count();
    Samples ourBefore = timeScans(config, keys.liveCount(), () -> countOurRows(table));
    Samples kernelBefore = timeScans(config, keys.liveCount(), () -> KernelTables.readRows(table.root()).size());

    long start = System.nanoTime();
    CompactionResult compaction = new Compactor(storage, CompactionOptions.defaults()).compact(before);
    double compactSeconds = Seconds.since(start);
    if (!(compaction instanceof CompactionResult.Compacted)) {
      throw new IllegalStateException("compaction did not commit: " + compaction);
    }
    int filesAfter = table.snapshot().files().size();
    Samples ourAfter = timeScans(config, keys.liveCount(), () -> countOurRows(table));
    Samples kernelAfter = timeScans(config, keys.liveCount(), () -> KernelTables.readRows(table.root()).size());

    String shape = String.format("%,d live rows after %,d commits of %,d changes; data files: %,d before compaction (%,d with DVs),"
        + " %,d after (compaction took %.1f s)", keys.liveCount(), config.scanCommits(), config.scanChangesPerCommit(),
        before.files().size(), deletionVectors, filesAfter, compactSeconds);
    report.add(Result.info("table scanned: " + shape, ""));
    addReader(report, "MergeSink scan", ourBefore, ourAfter);
    addReader(report, "Delta Kernel scan", kernelBefore, kernelAfter);
  }

  private static void addReader(ResultTable report, String reader, Samples before, Samples after) {
    report.add(Result.info(reader + ", before compaction", before.describe("%,.1f", "ms")));
    report.add(Result.info(reader + ", after compaction", after.describe("%,.1f", "ms")));
    report.add(new Result(reader + " time before / after compaction", "ratio of the medians above",
        String.format("%.1f", before.median() / after.median()), "", true));
  }

  private static Samples timeScans(BenchConfig config, long expectedRows, LongSupplier scan) {
    double[] millis = new double[config.scanRepetitions()];
    for (int run = -1; run < millis.length; run++) {
      long start = System.nanoTime();
      long rows = scan.getAsLong();
      double time = Seconds.millisSince(start);
      if (rows != expectedRows) {
        throw new IllegalStateException("a scan returned " + rows + " rows, expected " + expectedRows);
      }
      if (run >= 0) {
        millis[run] = time;
      }
    }
    return Samples.of(millis);
  }

  /** Rows of a full scan of the latest snapshot, opened as part of the scan like Kernel's read. */
  private static long countOurRows(DeltaTable table) {
    long rows = 0;
    try (TableScan scan = table.scan(table.snapshot(), List.of())) {
      while (scan.hasNext()) {
        scan.next();
        rows++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("scan of " + table.root() + " failed", e);
    }
    return rows;
  }
}
