package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.TableWriter;
import java.io.IOException;

/**
 * Bytes written per change (new data files plus deletion-vector files, as the commit reports them
 * in {@code CommitResult.counts().bytesWritten()}) for copy-on-write and deletion vectors: two
 * tables with the same rows in the same file layout take the same change sets.
 */
final class WriteAmplification {
  static final String NAME = "write-amplification";
  private static final double UPDATE_SHARE = 0.9;
  private static final double INSERT_SHARE = 0.05;
  private static final long SEED = 31;

  private WriteAmplification() {}

  static void run(BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    DeltaTable cowTable = tables.create("amplification-cow", MergeStrategy.COPY_ON_WRITE);
    DeltaTable dvTable = tables.create("amplification-dv", MergeStrategy.DELETION_VECTORS);
    KeySpace keys = new KeySpace(SEED);
    BenchTables.bulkLoad(cowTable, keys, config.amplificationTableRows(), config.amplificationTableFiles());
    BenchTables.bulkLoad(dvTable, new KeySpace(SEED), config.amplificationTableRows(), config.amplificationTableFiles());
    TableWriter cow = BenchTables.writer(cowTable, MergeStrategy.COPY_ON_WRITE);
    TableWriter dv = BenchTables.writer(dvTable, MergeStrategy.DELETION_VECTORS);

    int repetitions = config.amplificationRepetitions();
    double[] cowBytes = new double[repetitions];
    double[] dvBytes = new double[repetitions];
    double[] cowMillis = new double[repetitions];
    double[] dvMillis = new double[repetitions];
    for (int flush = -1; flush < repetitions; flush++) {
      ChangeSet changes = keys.mixed(config.flushChanges(), UPDATE_SHARE, INSERT_SHARE);
      long start = System.nanoTime();
      CommitResult cowResult = BenchTables.commit(cow, changes);
      double cowTime = Seconds.millisSince(start);
      start = System.nanoTime();
      CommitResult dvResult = BenchTables.commit(dv, changes);
      double dvTime = Seconds.millisSince(start);
      if (flush >= 0) {
        cowBytes[flush] = cowResult.counts().bytesWritten() / (double) config.flushChanges();
        dvBytes[flush] = dvResult.counts().bytesWritten() / (double) config.flushChanges();
        cowMillis[flush] = cowTime;
        dvMillis[flush] = dvTime;
      }
    }
    Samples cowPerChange = Samples.of(cowBytes);
    Samples dvPerChange = Samples.of(dvBytes);
    String flush = String.format("%,d-change flush into %s rows in %d files", config.flushChanges(),
        FlushCost.rows(config.amplificationTableRows()), config.amplificationTableFiles());
    report.add(Result.info("copy-on-write bytes written per change, " + flush, cowPerChange.describe("%,.0f", "B")
        + ", flush " + Samples.of(cowMillis).describe("%,.0f", "ms")));
    report.add(Result.info("deletion-vectors bytes written per change, " + flush, dvPerChange.describe("%,.0f", "B")
        + ", flush " + Samples.of(dvMillis).describe("%,.0f", "ms")));
    report.add(new Result("write amplification copy-on-write / deletion-vectors", "ratio of the medians above",
        String.format("%.1f", cowPerChange.median() / dvPerChange.median()), "", true));
  }
}
