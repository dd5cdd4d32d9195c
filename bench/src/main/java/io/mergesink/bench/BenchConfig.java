package io.mergesink.bench;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Sizes and repetitions of one run.
 *
 * @param upsertBaseRows rows in the tables of the upsert-vs-append workload before it starts
 * @param upsertBatches batches per measured round of the upsert-vs-append workload
 * @param upsertRounds measured rounds (plus one warm-up) of the upsert-vs-append workload
 * @param flushTables the tables of the flush-cost workload, smallest first: the first is the
 *     baseline the others' flush cost is compared with, the second carries the key-index and
 *     coalesced-throughput figures
 * @param flushChanges changes per flush in the flush-cost and write-amplification workloads
 * @param flushWarmups unmeasured flushes first
 * @param flushRepetitions measured flushes
 * @param coalescedBatch upserts per batch for the coalesced-throughput figure
 * @param coalescedRepetitions measured batches (plus one warm-up) for that figure
 * @param amplificationTableRows rows of the copy-on-write and deletion-vector tables compared
 * @param amplificationTableFiles data files those tables are loaded as
 * @param amplificationRepetitions measured flushes (plus one warm-up) into each
 * @param longHistoryCommits commits of the table with a long history
 * @param shortHistoryCommits commits of the table with a short history
 * @param openRepetitions measured opens (plus warm-ups) of each
 * @param scanTableRows rows of the scanned table before its small commits
 * @param scanCommits small deletion-vector commits into it before the scans
 * @param scanChangesPerCommit changes per such commit
 * @param scanRepetitions measured scans (plus one warm-up) per reader, before and after compaction
 * @param wideKeyRows rows of each wide-key table (a composite (bigint, string) key, a UUID string key) whose key index heap is measured
 * @param formatBaseRows rows preloaded into the Delta, Iceberg and Paimon tables of the formats workload
 * @param formatBatch changes per flush in the formats workload
 * @param formatBatches flushes per measured round of the formats workload
 * @param formatRounds measured rounds (plus one warm-up) of the formats workload
 */
record BenchConfig(
    long upsertBaseRows,
    int upsertBatches,
    int upsertRounds,
    List<FlushTable> flushTables,
    int flushChanges,
    int flushWarmups,
    int flushRepetitions,
    int coalescedBatch,
    int coalescedRepetitions,
    long amplificationTableRows,
    int amplificationTableFiles,
    int amplificationRepetitions,
    int longHistoryCommits,
    int shortHistoryCommits,
    int openRepetitions,
    long scanTableRows,
    int scanCommits,
    int scanChangesPerCommit,
    int scanRepetitions,
    long wideKeyRows,
    long formatBaseRows,
    int formatBatch,
    int formatBatches,
    int formatRounds) {

  /**
   * One table of the flush-cost workload.
   *
   * @param rows rows loaded before the flushes
   * @param files data files they are loaded as (a bulk-load commit holds one file's rows in memory)
   * @param opens times its writer is opened and the key index built, measured
   */
  record FlushTable(long rows, int files, int opens) {}

  /** The figures of bench/README.md: about 10 minutes on 2 cores with {@code -Xmx8g}. */
  static BenchConfig full() {
    List<FlushTable> flushTables = List.of(new FlushTable(100_000, 1, 1), new FlushTable(10_000_000, 8, 3),
        new FlushTable(100_000_000, 80, 1));
    return new BenchConfig(1_000_000, 10, 7, flushTables, 10_000, 2, 15, 100_000, 9, 1_000_000, 8, 5, 10_000, 100, 15, 50_000, 500, 200, 5,
        10_000_000, 1_000_000, 10_000, 5, 5);
  }

  /** A smoke test of every workload in about a minute; its ratios are not the published figures. */
  static BenchConfig quick() {
    List<FlushTable> flushTables = List.of(new FlushTable(20_000, 1, 1), new FlushTable(1_000_000, 4, 2),
        new FlushTable(2_000_000, 8, 1));
    return new BenchConfig(100_000, 5, 3, flushTables, 2_000, 1, 3, 20_000, 3, 100_000, 4, 3, 500, 50, 5, 10_000, 50, 100, 3,
        1_000_000, 100_000, 10_000, 2, 2);
  }

  String describe() {
    return String.format("upsert-vs-append: %,d base rows, %d rounds x %d batches of %,d; flush: %s, "
        + "%d+%d flushes of %,d changes, coalesced batches of %,d x %d; write amplification: %,d rows in %d files, %d flushes; "
        + "table open: %,d vs %,d commits, %d opens; scan: %,d rows, %d commits of %d changes, %d scans; wide keys: %,d rows; "
        + "formats: %,d base rows, %d rounds x %d flushes of %,d",
        upsertBaseRows, upsertRounds, upsertBatches, flushChanges, describe(flushTables), flushWarmups, flushRepetitions,
        flushChanges, coalescedBatch, coalescedRepetitions, amplificationTableRows, amplificationTableFiles, amplificationRepetitions,
        longHistoryCommits, shortHistoryCommits, openRepetitions, scanTableRows, scanCommits, scanChangesPerCommit, scanRepetitions,
        wideKeyRows, formatBaseRows, formatRounds, formatBatches, formatBatch);
  }

  private static String describe(List<FlushTable> tables) {
    return tables.stream()
        .map(table -> String.format("%,d rows (%d files)", table.rows(), table.files()))
        .collect(Collectors.joining(" vs "));
  }
}
