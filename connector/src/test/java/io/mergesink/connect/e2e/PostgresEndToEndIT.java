package io.mergesink.connect.e2e;

import java.nio.file.Path;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Debezium end to end: PostgreSQL → Debezium (pgoutput) → Kafka → MergeSink → Delta, with the
 * deploy files' options. After the snapshot, streamed inserts, updates, deletes, key changes,
 * TOASTed columns left alone by updates, a transaction with many changes to one key and a
 * transaction of {@value Workload#LARGE_TRANSACTION_ROWS} inserts and as many updates, every Delta
 * table (read by Delta Kernel) equals its PostgreSQL table.
 */
class PostgresEndToEndIT {
  @TempDir Path tables;

  @Test
  void deltaTablesEqualPostgresTables() {
    long seed = System.nanoTime();
    try (EndToEnd e2e = EndToEnd.start(tables)) {
      Workload workload = new Workload(e2e.postgres(), seed);
      workload.createTablesAndSnapshotRows();
      e2e.startSourceAndAwaitSnapshot();
      e2e.startSink();

      workload.streamedChanges();
      workload.largeTransaction();
      workload.afterLargeTransaction();
      workload.markEnd();
      e2e.awaitEndOfStream();
      e2e.awaitCaughtUp();

      SoftAssertions.assertSoftly(softly -> {
        softly.assertThat(e2e.tableDifferences()).as("Delta tables vs PostgreSQL tables, seed " + seed).isEmpty();
        softly.assertThat(e2e.toastPlaceholderEvents())
            .as("'<op>:<id>' of accounts events whose notes is Debezium's TOAST placeholder")
            .containsAll(Workload.TOAST_KEPT.stream().map(id -> "u:" + id).toList());
        softly.assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
      });
    }
  }
}
