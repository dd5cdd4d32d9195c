/**
 * Consistent cuts across tables (docs/transactions.md, "Consistent cuts"): points of the source's
 * transaction order every task commits up to ({@link io.mergesink.ingest.cut.CutCandidates}, chosen
 * alike by every task from the transaction topic), the task's gate on its buffers and the commit tags
 * ({@link io.mergesink.ingest.cut.CutGate}), and the task that holds the transaction topic publishing
 * each cut at which every table has a version ({@link io.mergesink.ingest.cut.CutPublisher}).
 */
package io.mergesink.ingest.cut;
