package io.mergesink.connect.reliability;

import java.nio.file.Path;
import java.util.Random;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code TRUNCATE} of the source table with {@code truncate.enabled=true} (docs/design.md,
 * "Decoding"), in a stream over several partitions and tasks: an upsert table is emptied and
 * filled again by the changes after it; an append table records the truncate as a row of its own
 * ({@code _op} t, no column of the source row) between the other events. Every partition is
 * committed before and after the truncate: it travels in one partition, and Kafka orders nothing
 * across partitions.
 */
class TruncateIT {
  private static final int PARTITIONS = 3;
  private static final int KEYS = 300;
  private static final int BUFFER_RECORDS = 50;
  private static final int QUIESCE_POLLS = 2_000;

  @TempDir Path tables;

  // in CI also an Iceberg copy-on-write cell: the files its upserts rewrote, then all of them, removed
  static Stream<Cell> cells() {
    return Matrix.cells(List.of(Cell.of(Cell.Layout.APPEND, Cell.Compaction.OFF),
        Cell.iceberg(Cell.Format.ICEBERG, Cell.Layout.COPY_ON_WRITE)), Cell::truncates);
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("cells")
  void truncateEmptiesUpsertTablesAndIsARowOfAppendTables(Cell cell) {
    long seed = Workloads.seed("truncate [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    TaskGroup group = new TaskGroup(cell.apply(Workloads.truncating(cell, Workloads.localConfig(tables, BUFFER_RECORDS))), log);
    group.start(2);
    for (int round = 0; round < 3; round++) {
      Workloads.mixed(log, KEYS, random);
      group.quiesce(Workloads.BATCH, QUIESCE_POLLS);
      log.truncate(random.nextInt(PARTITIONS));
      group.quiesce(Workloads.BATCH, QUIESCE_POLLS);
    }
    Workloads.changes(log, KEYS, 200, random);
    group.quiesce(Workloads.BATCH, QUIESCE_POLLS);
    group.stopAll();

    MatrixAudit.check("truncate seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }
}
