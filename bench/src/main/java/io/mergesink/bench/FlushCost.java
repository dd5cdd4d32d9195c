package io.mergesink.bench;

import io.mergesink.bench.BenchConfig.FlushTable;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.writer.MergingTableWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * bench/README.md, "Targets", "Flush cost grows with the batch, not the table", "Key index ≤ 48 bytes of heap per
 * key" and "≥ 300k coalesced upserts/s into a 10M-row table", on deletion-vector tables of
 * growing size (100k, 10M and 100M rows in the full run).
 *
 * <p>Flushes hold 90% updates of random live keys, 5% inserts and 5% deletes; the tables take
 * turns, a different one going first on each flush. A flush is timed from {@code commit} to its
 * return, so it includes refreshing the snapshot and, every tenth commit, writing a checkpoint.
 * The largest table is loaded and indexed first, while the heap is otherwise empty, because its
 * key index briefly holds its old and new arrays while it grows.
 */
final class FlushCost {
  static final String NAME = "flush";
  private static final double UPDATE_SHARE = 0.9;
  private static final double INSERT_SHARE = 0.05;
  private static final double COALESCED_INSERT_SHARE = 0.1;
  private static final double TARGET_FLUSH_RATIO = 1.5;
  private static final double TARGET_BYTES_PER_KEY = 48;
  private static final double TARGET_UPSERTS_PER_SECOND = 300_000;
  private static final long FIRST_SEED = 21;
  /** Below this many keys the settled-heap difference is mostly noise, so no bytes-per-key line. */
  private static final long MIN_KEYS_FOR_HEAP_FIGURE = 1_000_000;
  /** The table carrying the key-index and coalesced-throughput targets (10M rows in the full run). */
  private static final int TARGET_TABLE = 1;

  private FlushCost() {}

  /** One table under test: its live keys and its open writer. */
  private record SizedTable(FlushTable size, KeySpace keys, MergingTableWriter writer) {}

  static void run(BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    List<FlushTable> sizes = config.flushTables();
    SizedTable[] opened = new SizedTable[sizes.size()];
    List<List<Result>> loadResults = new ArrayList<>(sizes.size());
    for (int i = 0; i < sizes.size(); i++) {
      loadResults.add(new ArrayList<>());
    }
    for (int i = sizes.size() - 1; i >= 0; i--) {
      System.err.printf("[bench] loading and indexing the %s-row table%n", rows(sizes.get(i).rows()));
      opened[i] = load(tables, sizes.get(i), FIRST_SEED + i, loadResults.get(i));
    }
    loadResults.forEach(results -> results.forEach(report::add));

    int flushes = config.flushWarmups() + config.flushRepetitions();
    double[][] millis = new double[opened.length][config.flushRepetitions()];
    for (int flush = 0; flush < flushes; flush++) {
      List<ChangeSet> batches = new ArrayList<>();
      for (SizedTable table : opened) {
        batches.add(table.keys().mixed(config.flushChanges(), UPDATE_SHARE, INSERT_SHARE));
      }
      int measured = flush - config.flushWarmups();
      for (int turn = 0; turn < opened.length; turn++) {
        int table = (flush + turn) % opened.length;
        double time = timedCommit(opened[table].writer(), batches.get(table));
        if (measured >= 0) {
          millis[table][measured] = time;
        }
      }
    }

    String changes = String.format("%,d-change flush (90/5/5 upd/ins/del)", config.flushChanges());
    Samples baseline = Samples.of(millis[0]);
    for (int table = 0; table < opened.length; table++) {
      Samples flush = Samples.of(millis[table]);
      FlushTable size = opened[table].size();
      report.add(Result.info(changes + " into " + rows(size.rows()) + " rows (" + size.files() + " files)",
          flush.describe("%,.0f", "ms")));
      if (table > 0) {
        double ratio = flush.median() / baseline.median();
        report.add(new Result("flush cost " + rows(size.rows()) + " / " + rows(sizes.get(0).rows()) + " rows",
            "ratio of the medians above", String.format("%.2f", ratio), "≤ " + TARGET_FLUSH_RATIO, ratio <= TARGET_FLUSH_RATIO));
      }
    }

    coalescedThroughput(opened[TARGET_TABLE], config, report);
  }

  /** Bulk-loads a table and opens its deletion-vector writer, reporting load rate, index build and heap. */
  private static SizedTable load(BenchTables tables, FlushTable size, long seed, List<Result> report) throws IOException {
    DeltaTable table = tables.create("flush-" + rows(size.rows()), MergeStrategy.DELETION_VECTORS);
    KeySpace keys = new KeySpace(seed);
    double loadRate = BenchTables.bulkLoad(table, keys, size.rows(), size.files());
    report.add(Result.info(String.format("bulk load (append commits) of the %s-row table", rows(size.rows())),
        String.format("%,.0f rows/s", loadRate)));
    return new SizedTable(size, keys, openMeasured(table, size, report));
  }

  /**
   * Opens the table's writer {@code size.opens()} times (each builds the key index from the data
   * files), measuring time, and heap by settled used heap before and after the last open.
   */
  private static MergingTableWriter openMeasured(DeltaTable table, FlushTable size, List<Result> report) throws IOException {
    double[] seconds = new double[size.opens()];
    MergingTableWriter writer = null;
    long heapBefore = 0;
    for (int open = 0; open < size.opens(); open++) {
      writer = null;
      heapBefore = HeapProbe.settledUsedHeap();
      long start = System.nanoTime();
      writer = BenchTables.writer(table, MergeStrategy.DELETION_VECTORS);
      seconds[open] = Seconds.since(start);
    }
    long heapAfter = HeapProbe.settledUsedHeap();
    long keys = writer.indexedKeys();
    Samples open = Samples.of(seconds);
    report.add(Result.info(String.format("open DV writer on %s rows (key index build)", rows(size.rows())),
        open.describe("%.2f", "s") + String.format(", %,.0f keys/s", keys / open.median())));
    if (keys < MIN_KEYS_FOR_HEAP_FIGURE) {
      return writer;
    }
    double measured = (heapAfter - heapBefore) / (double) keys;
    double estimated = writer.indexEstimatedHeapBytes() / (double) keys;
    report.add(new Result("key index heap per BIGINT key, " + rows(size.rows()) + " rows",
        String.format("%.1f B/key measured (settled heap after − before opening, %,d keys); %.1f B/key index estimate", measured, keys,
            estimated),
        String.format("%.1f", measured), "≤ " + (int) TARGET_BYTES_PER_KEY, measured <= TARGET_BYTES_PER_KEY));
    return writer;
  }

  private static void coalescedThroughput(SizedTable table, BenchConfig config, ResultTable report) throws IOException {
    double[] rates = new double[config.coalescedRepetitions()];
    for (int batch = -1; batch < config.coalescedRepetitions(); batch++) {
      ChangeSet changes = table.keys().mixed(config.coalescedBatch(), 1 - COALESCED_INSERT_SHARE, COALESCED_INSERT_SHARE);
      double millis = timedCommit(table.writer(), changes);
      if (batch >= 0) {
        rates[batch] = config.coalescedBatch() / (millis / 1_000);
      }
    }
    Samples rate = Samples.of(rates);
    report.add(new Result(String.format("coalesced upserts/s into %s rows, %,d-upsert batches (90%% updates), %d cores",
            rows(table.size().rows()), config.coalescedBatch(), Runtime.getRuntime().availableProcessors()),
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
