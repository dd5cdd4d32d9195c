package io.mergesink.connect.e2e;

import io.mergesink.connect.testing.AbruptWorkers;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.localconnect.Await;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload of {@link PostgresEndToEndIT} into Iceberg tables ({@code table.format=iceberg}, the
 * default Hadoop catalog with the table root as its warehouse, upserts marked in deletion vectors)
 * on two Connect workers that stop as if killed ({@link AbruptWorkers}): one worker is stopped in
 * the middle of the large transaction, its tasks abandoned mid-batch and moved to the other; a
 * worker joins again later, and the tasks are rebalanced over both. Every Iceberg table, read by
 * Iceberg's generic reader, must equal its PostgreSQL table (nothing lost, nothing applied twice),
 * hold no equality deletes, and record the last offset of its topic in its snapshot summary.
 */
class PostgresIcebergIT {
  private static final int WORKERS = 2;
  private static final int TASKS = 2;
  /** An offset of {@code line_items} inside the large transaction's events. */
  private static final long INSIDE_LARGE_TRANSACTION = Workload.LARGE_TRANSACTION_ROWS / 2;
  private static final Map<String, String> ICEBERG = Map.of("table.format", "iceberg", "tasks.max", Integer.toString(TASKS));

  @TempDir Path tables;

  @Test
  void icebergTablesEqualPostgresTablesAfterAWorkerIsKilledAndTasksRebalance() {
    long seed = System.nanoTime();
    try (EndToEnd e2e = EndToEnd.start(tables, WORKERS, AbruptWorkers.WORKER_PROPS)) {
      Workload workload = new Workload(e2e.postgres(), seed);
      workload.createTablesAndSnapshotRows();
      e2e.startSourceAndAwaitSnapshot();
      e2e.startSink(ICEBERG);

      workload.streamedChanges();
      Await.until("a first sink commit to " + Workload.ACCOUNTS, EndToEnd.CATCH_UP,
          () -> e2e.txnVersion(Workload.ACCOUNTS).isPresent());
      workload.largeTransaction();
      Await.until("the sink inside the large transaction", EndToEnd.CATCH_UP, () -> e2e.txnVersion(Workload.LINE_ITEMS),
          version -> version.orElse(-1L) >= INSIDE_LARGE_TRANSACTION);
      e2e.connect().cluster().removeWorker();
      long killedAt = e2e.txnVersion(Workload.LINE_ITEMS).orElseThrow();
      e2e.connect().awaitRunning(EndToEnd.SINK, TASKS);

      workload.afterLargeTransaction();
      e2e.connect().cluster().addWorker();
      e2e.connect().awaitRunning(EndToEnd.SINK, TASKS);
      workload.markEnd();

      e2e.awaitEndOfStream();
      e2e.awaitCaughtUp();
      SoftAssertions.assertSoftly(softly -> {
        softly.assertThat(e2e.tableDifferences()).as("Iceberg tables vs PostgreSQL tables, seed " + seed
            + ", a worker killed at line_items offset " + killedAt).isEmpty();
        for (String name : List.of(Workload.ACCOUNTS, Workload.LINE_ITEMS)) {
          Table table = IcebergTables.load(e2e.tablePath(name));
          softly.assertThat(IcebergTables.hasEqualityDeletes(table)).as(name + " has equality deletes").isFalse();
        }
        softly.assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
      });
    }
  }
}
