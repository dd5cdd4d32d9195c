package io.mergesink.connect.e2e;

import io.mergesink.ingest.testing.PaimonTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.table.FileStoreTable;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload of {@link PostgresEndToEndIT} into Paimon primary-key tables ({@code table.format=paimon},
 * the filesystem catalog with the table root as its warehouse, the defaults: fixed buckets,
 * {@code deletion-vectors.enabled=true}, {@code merge-engine=deduplicate}) with a Connect worker
 * killed inside the large transaction and the tasks rebalanced ({@link KilledWorkerRun}). Every
 * Paimon table, read by Paimon's own reader (deletion vectors applied), must equal its PostgreSQL
 * table (nothing lost, nothing applied twice, TOASTed values that updates left alone kept), and the
 * newest snapshot must record the last offset of its topic.
 */
class PostgresPaimonIT {
  private static final Map<String, String> PAIMON = Map.of("table.format", "paimon");

  @TempDir Path tables;

  @Test
  void paimonTablesEqualPostgresTablesAfterAWorkerIsKilledAndTasksRebalance() {
    long seed = System.nanoTime();
    try (EndToEnd e2e = KilledWorkerRun.start(tables)) {
      Workload workload = new Workload(e2e.postgres(), seed);
      workload.createTablesAndSnapshotRows();
      long killedAt = KilledWorkerRun.stream(e2e, workload, PAIMON);

      SoftAssertions.assertSoftly(softly -> {
        softly.assertThat(e2e.tableDifferences()).as("Paimon tables vs PostgreSQL tables, seed " + seed
            + ", a worker killed at line_items offset " + killedAt).isEmpty();
        softly.assertThat(e2e.toastPlaceholderEvents())
            .as("'<op>:<id>' of accounts events whose notes is Debezium's TOAST placeholder")
            .containsAll(Workload.TOAST_KEPT.stream().map(id -> "u:" + id).toList());
        for (String name : List.of(Workload.ACCOUNTS, Workload.LINE_ITEMS)) {
          FileStoreTable table = PaimonTables.loadAt(e2e.tablePath(name)).orElseThrow();
          softly.assertThat(PaimonTables.positions(table)).as("positions in the newest snapshot of " + name)
              .isEqualTo(Map.of(EndToEnd.positionId(name), e2e.lastOffset(name)));
          softly.assertThat(table.primaryKeys()).as("primary key of " + name).isNotEmpty();
          softly.assertThat(table.coreOptions().deletionVectorsEnabled()).as(name + " has deletion vectors").isTrue();
          softly.assertThat(PaimonTables.missingFiles(table)).as("missing files of " + name).isEmpty();
        }
        softly.assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
      });
    }
  }
}
