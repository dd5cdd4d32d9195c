package io.mergesink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands on tables Spark wrote (merge-core's fixtures): {@code scan} prints what Spark
 * reads, partition columns included; compaction (per partition), vacuum and checkpoint of a
 * partitioned table keep its rows, and compaction of a row tracking table their row ids and
 * commit versions; {@code compact --dry-run} plans nothing that {@code compact}
 * refuses; vacuum and checkpoint refuse tables MergeSink cannot write (vacuum checks the writer
 * protocol of every table, PROTOCOL.md "VACUUM Protocol Check").
 */
class FixtureCommandsTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"partitioned-table", "column-mapping-name-table", "column-mapping-id-table", "v2-checkpoint-table"})
  void scanPrintsTheRowsSparkReads(String fixture) {
    CliRun csv = run("scan", FixtureTables.path(fixture).toString(), "--format", "csv");

    assertThat(csv.code()).as(csv.err()).isZero();
    List<List<String>> printed = FixtureTables.parseCsv(csv.out());
    assertThat(printed.get(0)).isEqualTo(FixtureTables.expectedColumns(fixture));
    assertThat(FixtureTables.sorted(printed.subList(1, printed.size())))
        .isEqualTo(FixtureTables.sorted(FixtureTables.expectedRows(fixture)));
  }

  @Test
  void maintenanceOfAPartitionedSparkTableKeepsItsRows() throws Exception {
    String table = FixtureTables.copy("partitioned-table", dir.resolve("t")).toString();

    CliRun dryRun = run("compact", table, "--min-files", "2", "--dry-run", "--json");
    CliRun compact = run("compact", table, "--min-files", "2");
    CliRun vacuum = run("vacuum", table, "--retain-hours", "0", "--force");
    CliRun checkpoint = run("checkpoint", table);
    CliRun csv = run("scan", table, "--format", "csv");

    for (CliRun result : List.of(dryRun, compact, vacuum, checkpoint, csv)) {
      assertThat(result.code()).as(result.err()).isZero();
    }
    assertThat(dryRun.out()).as("bins within partitions").contains("\"partitionValues\":{\"region\":");
    assertThat(compact.out()).startsWith("compacted ");
    List<List<String>> printed = FixtureTables.parseCsv(csv.out());
    assertThat(FixtureTables.sorted(printed.subList(1, printed.size())))
        .isEqualTo(FixtureTables.sorted(FixtureTables.expectedRows("partitioned-table")));
  }

  @Test
  void compactKeepsTheRowIdsAndCommitVersionsOfARowTrackingSparkTable() {
    String table = FixtureTables.copy("row-tracking-table", dir.resolve("t")).toString();
    Set<Row> before = new HashSet<>(KernelTables.readRowsWithRowTracking(table));

    CliRun compact = run("compact", table, "--min-files", "2");

    assertThat(compact.code()).as(compact.err()).isZero();
    assertThat(compact.out()).startsWith("compacted ");
    assertThat(KernelTables.latestVersion(table)).isEqualTo(4);
    assertThat(new HashSet<>(KernelTables.readRowsWithRowTracking(table))).as("id, v, row_id, row_commit_version").isEqualTo(before);
  }

  @Test
  void compactDryRunRefusesWhatCompactRefuses() {
    String table = FixtureTables.copy("constraints-table", dir.resolve("t")).toString();

    CliRun compact = run("compact", table);
    CliRun dryRun = run("compact", table, "--dry-run");

    assertThat(compact.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(compact.err()).contains("writer features [checkConstraints]");
    assertThat(dryRun.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(dryRun.err()).isEqualTo(compact.err());
    assertThat(dryRun.out()).isEmpty();
  }

  @Test
  void maintenanceThatWritesIsRefusedOnTablesMergeSinkCannotWrite() throws Exception {
    Path table = FixtureTables.copy("constraints-table", dir.resolve("t"));
    List<String> logBefore = list(table.resolve("_delta_log"));

    for (String[] command : new String[][] {{"vacuum", "--dry-run"}, {"vacuum"}, {"checkpoint"}}) {
      String[] args = new String[command.length + 1];
      args[0] = command[0];
      args[1] = table.toString();
      System.arraycopy(command, 1, args, 2, command.length - 1);
      CliRun result = run(args);
      assertThat(result.code()).as(String.join(" ", command)).isEqualTo(MergeSinkCli.EXIT_FAILED);
      assertThat(result.err()).contains("uses writer features [checkConstraints], which MergeSink does not support");
    }
    assertThat(list(table.resolve("_delta_log"))).isEqualTo(logBefore);
    assertThat(run("describe", table.toString()).code()).isZero();
  }

  private static List<String> list(Path dir) throws java.io.IOException {
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }
}
