package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * bench/README.md, "Targets", "Upsert with deletion vectors ≥ 0.8 × plain append": the same change sets (90%
 * updates of existing keys, 10% inserts) committed to a deletion-vector table and to an append
 * table that start with the same rows. Rounds alternate which table goes first, so drift in the
 * machine hits both alike.
 */
final class UpsertVsAppend {
  static final String NAME = "upsert-vs-append";
  private static final double UPDATE_SHARE = 0.9;
  private static final double INSERT_SHARE = 0.1;
  private static final double TARGET_RATIO = 0.8;
  private static final int BASE_FILES = 8;
  private static final long SEED = 11;

  private UpsertVsAppend() {}

  static void run(BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    DeltaTable upsertTable = tables.create("upsert-dv", MergeStrategy.DELETION_VECTORS);
    DeltaTable appendTable = tables.createAppend("upsert-append");
    KeySpace keys = new KeySpace(SEED);
    BenchTables.bulkLoad(upsertTable, keys, config.upsertBaseRows(), BASE_FILES);
    BenchTables.bulkLoad(appendTable, new KeySpace(SEED), config.upsertBaseRows(), BASE_FILES);
    TableWriter upserts = BenchTables.writer(upsertTable, MergeStrategy.DELETION_VECTORS);
    TableWriter appends = appendTable.newAppendWriter(WriterOptions.defaults());

    int rounds = config.upsertRounds();
    double[] upsertRates = new double[rounds];
    double[] appendRates = new double[rounds];
    double[] ratios = new double[rounds];
    long rowsPerRound = (long) config.upsertBatches() * config.flushChanges();
    for (int round = -1; round < rounds; round++) {
      List<ChangeSet> batches = new ArrayList<>();
      for (int i = 0; i < config.upsertBatches(); i++) {
        batches.add(keys.mixed(config.flushChanges(), UPDATE_SHARE, INSERT_SHARE));
      }
      double upsertSeconds;
      double appendSeconds;
      if (Math.floorMod(round, 2) == 0) {
        upsertSeconds = commitAll(upserts, batches);
        appendSeconds = commitAll(appends, batches);
      } else {
        appendSeconds = commitAll(appends, batches);
        upsertSeconds = commitAll(upserts, batches);
      }
      if (round >= 0) {
        upsertRates[round] = rowsPerRound / upsertSeconds;
        appendRates[round] = rowsPerRound / appendSeconds;
        ratios[round] = appendSeconds / upsertSeconds;
      }
    }
    Samples upsert = Samples.of(upsertRates);
    Samples append = Samples.of(appendRates);
    Samples ratio = Samples.of(ratios);
    String batch = String.format("%,d-change batches", config.flushChanges());
    report.add(Result.info("append, " + batch + " (rows/s)", append.describe("%,.0f", "rows/s")));
    report.add(Result.info("deletion-vectors upsert, 90% updates, " + batch + " (rows/s)", upsert.describe("%,.0f", "rows/s")));
    report.add(new Result("upsert (DV) / append throughput, same rows, same run",
        String.format("per-round ratio %.2f (%.2f–%.2f, n=%d)", ratio.median(), ratio.min(), ratio.max(), ratio.count()),
        String.format("%.2f", ratio.median()), "≥ " + TARGET_RATIO, ratio.median() >= TARGET_RATIO));
  }

  private static double commitAll(TableWriter writer, List<ChangeSet> batches) throws IOException {
    long start = System.nanoTime();
    for (ChangeSet batch : batches) {
      BenchTables.commit(writer, batch);
    }
    return Seconds.since(start);
  }
}
