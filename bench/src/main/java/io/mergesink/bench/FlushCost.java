package io.mergesink.bench;

import io.mergesink.core.merge.ChangeSet;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.merge.MergingTableWriter;
import io.mergesink.core.table.DeltaTable;
import java.io.IOException;

/**
 * DESIGN §9 "Flush cost grows with the batch, not the table", "Key index ≤ 48 bytes of heap per
 * key" and "≥ 300k coalesced upserts/s into a 10M-row table", on deletion-vector tables of a
 * small and a large size.
 *
 * <p>Flushes hold 90% updates of random live keys, 5% inserts and 5% deletes; the two tables take
 * turns, the first going first on even flushes. A flush is timed from {@code commit} to its return,
 * so it includes refreshing the snapshot and, every tenth commit, writing a checkpoint.
 */
final class FlushCost {
  static final String NAME = "flush";
  private static final double UPDATE_SHARE = 0.9;
  private static final double INSERT_SHARE = 0.05;
  private static final double COALESCED_INSERT_SHARE = 0.1;
  private static final double TARGET_FLUSH_RATIO = 1.5;
  private static final double TARGET_BYTES_PER_KEY = 48;
  private static final double TARGET_UPSERTS_PER_SECOND = 300_000;
  private static final long SMALL_SEED = 21;
  private static final long LARGE_SEED = 22;

  private FlushCost() {}

  static void run(BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    DeltaTable small = tables.create("flush-small", MergeStrategy.DELETION_VECTORS);
    DeltaTable large = tables.create("flush-large", MergeStrategy.DELETION_VECTORS);
    KeySpace smallKeys = new KeySpace(SMALL_SEED);
    KeySpace largeKeys = new KeySpace(LARGE_SEED);
    BenchTables.bulkLoad(small, smallKeys, config.smallTableRows(), 1);
    double loadRate = BenchTables.bulkLoad(large, largeKeys, config.largeTableRows(), config.largeTableFiles());
    report.add(Result.info(String.format("bulk load (append commits) of the %s-row table", rows(config.largeTableRows())),
        String.format("%,.0f rows/s", loadRate)));

    MergingTableWriter smallWriter = BenchTables.writer(small, MergeStrategy.DELETION_VECTORS);
    MergingTableWriter largeWriter = openMeasured(large, config, report);

    int flushes = config.flushWarmups() + config.flushRepetitions();
    double[] smallMillis = new double[config.flushRepetitions()];
    double[] largeMillis = new double[config.flushRepetitions()];
    for (int flush = 0; flush < flushes; flush++) {
      ChangeSet smallBatch = smallKeys.mixed(config.flushChanges(), UPDATE_SHARE, INSERT_SHARE);
      ChangeSet largeBatch = largeKeys.mixed(config.flushChanges(), UPDATE_SHARE, INSERT_SHARE);
      double smallTime;
      double largeTime;
      if (flush % 2 == 0) {
        smallTime = timedCommit(smallWriter, smallBatch);
        largeTime = timedCommit(largeWriter, largeBatch);
      } else {
        largeTime = timedCommit(largeWriter, largeBatch);
        smallTime = timedCommit(smallWriter, smallBatch);
      }
      int measured = flush - config.flushWarmups();
      if (measured >= 0) {
        smallMillis[measured] = smallTime;
        largeMillis[measured] = largeTime;
      }
    }
    Samples smallFlush = Samples.of(smallMillis);
    Samples largeFlush = Samples.of(largeMillis);
    String changes = String.format("%,d-change flush (90/5/5 upd/ins/del)", config.flushChanges());
    report.add(Result.info(changes + " into " + rows(config.smallTableRows()) + " rows", smallFlush.describe("%,.0f", "ms")));
    report.add(Result.info(changes + " into " + rows(config.largeTableRows()) + " rows", largeFlush.describe("%,.0f", "ms")));
    double ratio = largeFlush.median() / smallFlush.median();
    report.add(new Result("flush cost " + rows(config.largeTableRows()) + " / " + rows(config.smallTableRows()) + " rows",
        "ratio of the medians above", String.format("%.2f", ratio), "≤ " + TARGET_FLUSH_RATIO, ratio <= TARGET_FLUSH_RATIO));

    coalescedThroughput(largeWriter, largeKeys, config, report);
  }

  /**
   * Opens the large table's writer several times (each builds the key index from the data files),
   * measuring time, and heap by settled used heap before and after the last open.
   */
  private static MergingTableWriter openMeasured(DeltaTable large, BenchConfig config, ResultTable report) throws IOException {
    double[] seconds = new double[config.writerOpens()];
    MergingTableWriter writer = null;
    long heapBefore = 0;
    for (int open = 0; open < config.writerOpens(); open++) {
      writer = null;
      heapBefore = HeapProbe.settledUsedHeap();
      long start = System.nanoTime();
      writer = BenchTables.writer(large, MergeStrategy.DELETION_VECTORS);
      seconds[open] = Seconds.since(start);
    }
    long heapAfter = HeapProbe.settledUsedHeap();
    long keys = writer.indexedKeys();
    Samples open = Samples.of(seconds);
    report.add(Result.info(String.format("open DV writer on %s rows (key index build)", rows(config.largeTableRows())),
        open.describe("%.2f", "s") + String.format(", %,.0f keys/s", keys / open.median())));
    double measured = (heapAfter - heapBefore) / (double) keys;
    double estimated = writer.indexEstimatedHeapBytes() / (double) keys;
    report.add(new Result("key index heap per BIGINT key",
        String.format("%.1f B/key measured (settled heap after − before opening, %,d keys); %.1f B/key index estimate", measured, keys,
            estimated),
        String.format("%.1f", measured), "≤ " + (int) TARGET_BYTES_PER_KEY, measured <= TARGET_BYTES_PER_KEY));
    return writer;
  }

  private static void coalescedThroughput(MergingTableWriter writer, KeySpace keys, BenchConfig config, ResultTable report)
      throws IOException {
    double[] rates = new double[config.coalescedRepetitions()];
    for (int batch = -1; batch < config.coalescedRepetitions(); batch++) {
      ChangeSet changes = keys.mixed(config.coalescedBatch(), 1 - COALESCED_INSERT_SHARE, COALESCED_INSERT_SHARE);
      double millis = timedCommit(writer, changes);
      if (batch >= 0) {
        rates[batch] = config.coalescedBatch() / (millis / 1_000);
      }
    }
    Samples rate = Samples.of(rates);
    report.add(new Result(String.format("coalesced upserts/s into %s rows, %,d-upsert batches (90%% updates), %d cores",
            rows(config.largeTableRows()), config.coalescedBatch(), Runtime.getRuntime().availableProcessors()),
        rate.describe("%,.0f", "upserts/s"), String.format("%,.0f", rate.median()), String.format("≥ %,.0f", TARGET_UPSERTS_PER_SECOND),
        rate.median() >= TARGET_UPSERTS_PER_SECOND));
  }

  private static double timedCommit(MergingTableWriter writer, ChangeSet changes) throws IOException {
    long start = System.nanoTime();
    BenchTables.commit(writer, changes);
    return Seconds.millisSince(start);
  }

  static String rows(long rows) {
    if (rows % 1_000_000 == 0) {
      return rows / 1_000_000 + "M";
    }
    return rows % 1_000 == 0 ? rows / 1_000 + "k" : Long.toString(rows);
  }
}
