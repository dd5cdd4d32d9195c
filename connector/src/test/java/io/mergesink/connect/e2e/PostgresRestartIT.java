package io.mergesink.connect.e2e;

import io.mergesink.localconnect.Await;
import java.nio.file.Path;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload of {@link PostgresEndToEndIT} with the sink restarted twice while it streams: once
 * through the REST API (connector and tasks) after the streamed changes, once stopped in the
 * middle of the large transaction and resumed after the rest of the workload ran. The Delta tables
 * must still equal the PostgreSQL tables: nothing lost, nothing applied twice.
 */
class PostgresRestartIT {
  /** An offset of {@code line_items} inside the large transaction's events. */
  private static final long INSIDE_LARGE_TRANSACTION = Workload.LARGE_TRANSACTION_ROWS / 2;

  @TempDir Path tables;

  @Test
  void deltaTablesEqualPostgresTablesAfterSinkRestarts() {
    long seed = System.nanoTime();
    try (EndToEnd e2e = EndToEnd.start(tables)) {
      Workload workload = new Workload(e2e.postgres(), seed);
      workload.createTablesAndSnapshotRows();
      e2e.startSourceAndAwaitSnapshot();
      e2e.startSink();

      workload.streamedChanges();
      Await.until("a first sink commit to " + Workload.ACCOUNTS, EndToEnd.CATCH_UP,
          () -> e2e.txnVersion(Workload.ACCOUNTS).isPresent());
      e2e.connect().cluster().restartConnectorAndTasks(EndToEnd.SINK, false, true, false);
      e2e.connect().awaitRunning(EndToEnd.SINK, 1);

      workload.largeTransaction();
      Await.until("the sink inside the large transaction", EndToEnd.CATCH_UP, () -> e2e.txnVersion(Workload.LINE_ITEMS),
          version -> version.orElse(-1L) >= INSIDE_LARGE_TRANSACTION);
      e2e.connect().stopConnector(EndToEnd.SINK);
      long stoppedAt = e2e.txnVersion(Workload.LINE_ITEMS).orElseThrow();
      workload.afterLargeTransaction();
      workload.markEnd();
      e2e.connect().cluster().resumeConnector(EndToEnd.SINK);
      e2e.connect().awaitRunning(EndToEnd.SINK, 1);

      e2e.awaitEndOfStream();
      e2e.awaitCaughtUp();
      SoftAssertions.assertSoftly(softly -> {
        softly.assertThat(e2e.tableDifferences()).as("Delta tables vs PostgreSQL tables, seed " + seed
            + ", sink stopped at line_items offset " + stoppedAt).isEmpty();
        softly.assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
      });
    }
  }
}
