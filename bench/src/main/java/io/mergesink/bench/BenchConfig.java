package io.mergesink.bench;

/**
 * Sizes and repetitions of one run.
 *
 * @param upsertBaseRows rows in the tables of the upsert-vs-append workload before it starts
 * @param upsertBatches batches per measured round of the upsert-vs-append workload
 * @param upsertRounds measured rounds (plus one warm-up) of the upsert-vs-append workload
 * @param smallTableRows rows of the small table of the flush-cost workload
 * @param largeTableRows rows of the large table of the flush-cost workload
 * @param largeTableFiles data files the large table is loaded as
 * @param flushChanges changes per flush in the flush-cost and write-amplification workloads
 * @param flushWarmups unmeasured flushes first
 * @param flushRepetitions measured flushes
 * @param writerOpens times the writer of the large table is opened (index build)
 * @param coalescedBatch upserts per batch for the coalesced-throughput figure
 * @param coalescedRepetitions measured batches (plus one warm-up) for that figure
 * @param amplificationTableRows rows of the copy-on-write and deletion-vector tables compared
 * @param amplificationTableFiles data files those tables are loaded as
 * @param amplificationRepetitions measured flushes (plus one warm-up) into each
 * @param longHistoryCommits commits of the table with a long history
 * @param shortHistoryCommits commits of the table with a short history
 * @param openRepetitions measured opens (plus warm-ups) of each
 */
record BenchConfig(
    long upsertBaseRows,
    int upsertBatches,
    int upsertRounds,
    long smallTableRows,
    long largeTableRows,
    int largeTableFiles,
    int flushChanges,
    int flushWarmups,
    int flushRepetitions,
    int writerOpens,
    int coalescedBatch,
    int coalescedRepetitions,
    long amplificationTableRows,
    int amplificationTableFiles,
    int amplificationRepetitions,
    int longHistoryCommits,
    int shortHistoryCommits,
    int openRepetitions) {

  /** The figures of README.md: about 10 minutes on 2 cores with {@code -Xmx8g}. */
  static BenchConfig full() {
    return new BenchConfig(1_000_000, 10, 7, 100_000, 10_000_000, 8, 10_000, 2, 15, 3, 100_000, 9, 1_000_000, 8, 5, 10_000, 100, 15);
  }

  /** A smoke test of every workload in about a minute; its ratios are not the README figures. */
  static BenchConfig quick() {
    return new BenchConfig(100_000, 5, 3, 20_000, 1_000_000, 4, 2_000, 1, 3, 2, 20_000, 3, 100_000, 4, 3, 500, 50, 5);
  }

  String describe() {
    return String.format("upsert-vs-append: %,d base rows, %d rounds x %d batches of %,d; flush: %,d vs %,d rows (%d files), "
        + "%d+%d flushes of %,d changes, coalesced batches of %,d x %d; write amplification: %,d rows in %d files, %d flushes; "
        + "table open: %,d vs %,d commits, %d opens",
        upsertBaseRows, upsertRounds, upsertBatches, flushChanges, smallTableRows, largeTableRows, largeTableFiles, flushWarmups,
        flushRepetitions, flushChanges, coalescedBatch, coalescedRepetitions, amplificationTableRows, amplificationTableFiles,
        amplificationRepetitions, longHistoryCommits, shortHistoryCommits, openRepetitions);
  }
}
