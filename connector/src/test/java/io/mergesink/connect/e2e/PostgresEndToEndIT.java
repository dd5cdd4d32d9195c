package io.mergesink.connect.e2e;

import io.mergesink.ingest.decode.LogicalTypes;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.connect.data.Struct;
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
        softly.assertThat(toastPlaceholderEvents(e2e))
            .as("'<op>:<id>' of accounts events whose notes is Debezium's TOAST placeholder")
            .containsAll(Workload.TOAST_KEPT.stream().map(id -> "u:" + id).toList());
        softly.assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
      });
    }
  }

  /** {@code <op>:<id>} of every accounts event whose {@code after.notes} is the unavailable-value placeholder. */
  private static Set<String> toastPlaceholderEvents(EndToEnd e2e) {
    int count = Math.toIntExact(e2e.connect().recordCount(EndToEnd.topic(Workload.ACCOUNTS)));
    Set<String> events = new TreeSet<>();
    for (Struct[] record : e2e.records(Workload.ACCOUNTS, count)) {
      Struct value = record[1];
      Struct after = value == null ? null : value.getStruct("after");
      if (after != null && LogicalTypes.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER.equals(after.getString("notes"))) {
        events.add(value.getString("op") + ":" + after.getInt32("id"));
      }
    }
    return events;
  }
}
