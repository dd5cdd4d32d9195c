package io.mergesink.connect.reliability;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A column added in the middle of a multi-partition stream with several tasks (docs/design.md,
 * "Schema evolution"): the source runs {@code ALTER TABLE customers ADD COLUMN tier text}, and
 * from then on every partition carries rows one column wider. The tasks read their partitions at
 * different paces, so one task adds the column to the table while another still holds rows of the
 * old width in its buffer and commits them afterwards; rows of both widths interleave. Rows the
 * source wrote before the change read {@code tier} as null.
 */
class SchemaChangeIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 600;
  private static final int BATCH = 20;
  private static final int QUIESCE_POLLS = 2_000;

  @TempDir Path tables;

  static Stream<Cell> cells() {
    return Matrix.cells(Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.OFF));
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("cells")
  void rowsOfTheOldAndTheNewWidthLandFromEveryTask(Cell cell) {
    long seed = Workloads.seed("schema change [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    TaskGroup group = new TaskGroup(cell.apply(Workloads.localConfig(tables, 100_000)), log);
    Workloads.mixed(log, KEYS, random);
    group.start(3);
    group.quiesce(BATCH, QUIESCE_POLLS);

    // Old-width changes; the slow tasks buffer some of them and do not commit yet.
    Workloads.changes(log, KEYS, 400, random);
    List<TaskDriver> tasks = group.tasks();
    TaskDriver fast = tasks.get(0);
    for (TaskDriver slow : tasks.subList(1, tasks.size())) {
      slow.poll(BATCH);
    }
    // The column is added; the fast task reads on into the new width, adds the column and commits.
    log.addTierColumn();
    Workloads.changes(log, KEYS, 600, random);
    fast.runToEnd(BATCH, QUIESCE_POLLS);
    // The slow tasks commit their old-width rows to the wider table, then read on through both widths.
    for (TaskDriver slow : tasks.subList(1, tasks.size())) {
      slow.preCommit();
    }
    for (int round = 0; round < 10; round++) {
      Workloads.touchExisting(log, 60, random);
      group.pollAll(BATCH, random, 2);
    }
    if (random.nextBoolean()) {
      group.killOne(random);
    }
    group.quiesce(BATCH, QUIESCE_POLLS);
    group.stopAll();

    MatrixAudit.check("schema change seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }
}
