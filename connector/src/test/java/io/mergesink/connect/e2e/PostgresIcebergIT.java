package io.mergesink.connect.e2e;

import io.mergesink.ingest.testing.IcebergTables;
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
 * with a Connect worker killed inside the large transaction and the tasks rebalanced
 * ({@link KilledWorkerRun}). Every Iceberg table, read by Iceberg's generic reader, must equal its
 * PostgreSQL table (nothing lost, nothing applied twice), hold no equality deletes, and record the
 * last offset of its topic in its snapshot summary.
 */
class PostgresIcebergIT {
  private static final Map<String, String> ICEBERG = Map.of("table.format", "iceberg");

  @TempDir Path tables;

  @Test
  void icebergTablesEqualPostgresTablesAfterAWorkerIsKilledAndTasksRebalance() {
    long seed = System.nanoTime();
    try (EndToEnd e2e = KilledWorkerRun.start(tables)) {
      Workload workload = new Workload(e2e.postgres(), seed);
      workload.createTablesAndSnapshotRows();
      long killedAt = KilledWorkerRun.stream(e2e, workload, ICEBERG);

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
