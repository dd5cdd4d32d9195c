package io.mergesink.ingest.metrics;

import io.mergesink.core.storage.RequestCounts;

/**
 * What the engine reports as it goes, for its front end to publish as metrics (Connect's plugin
 * metrics, a Streams application's sensors). Called on the thread that drives the engine; the
 * defaults ignore everything. Gauges the front end reads itself: {@link io.mergesink.ingest.IngestEngine#bufferedChanges()},
 * {@link io.mergesink.ingest.IngestEngine#storageRequests()}.
 */
public interface IngestMetrics {
  /** Reports nothing. */
  IngestMetrics NONE = new IngestMetrics() {};

  /**
   * A table commit landed.
   *
   * @param latencyMs from the start of planning to the published commit
   * @param rowsWritten rows written to data files (upserts, appends, rewritten rows)
   * @param requests the storage requests the commit made, planning included
   */
  default void committed(long latencyMs, long rowsWritten, RequestCounts requests) {}

  /** A record was skipped because its table already held it (a replay after a restart or rebalance). */
  default void replaySkipped() {}

  /**
   * Changes of keyed tables ordered by a source sequence ({@code upsert.order.by}) were skipped:
   * their key had a newer change, in the buffer or in the table.
   */
  default void staleChangesSkipped(long changes) {}

  /** A commit was refused because another task took one of its partitions over. */
  default void fenced() {}

  /**
   * Source transactions began to land in pieces: each was larger than a partition's buffer
   * (docs/transactions.md). Open transactions are a gauge: {@link io.mergesink.ingest.IngestEngine#openTransactions()}.
   */
  default void transactionsInPieces(int count) {}
}
