package io.mergesink.connect.reliability;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Partitions moving between tasks after files were written for several of them (docs/design.md,
 * "File ownership"): one task owns every partition and writes every key, then three tasks share the
 * partitions, then two, then one again ({@code tasks.max} 1 → 3 → 2 → 1). Each task set updates
 * and deletes keys written before the change; at random points a task is dropped without stop (its
 * worker died) and Connect gives its partitions to a new task, and some changes of the task sets
 * end abruptly too. A rewrite (copy-on-write, compaction) must keep the rows it carries over
 * visible to the tasks that own them: after each task set has caught up, no key has two live rows
 * and the table holds what the source says.
 */
class OwnershipChangeIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 1_000;
  private static final int BUFFER_RECORDS = 60;
  private static final int ROUNDS = 8;
  private static final int QUIESCE_POLLS = 2_000;
  private static final List<Integer> TASK_SETS = List.of(3, 2, 1);

  @TempDir Path tables;

  static Stream<Cell> cells() {
    return Matrix.cells(Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.OFF));
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("cells")
  void keysWrittenBeforeEachOwnershipChangeKeepOneLiveRow(Cell cell) {
    long seed = Workloads.seed("ownership changes [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    TaskGroup group = new TaskGroup(cell.apply(Workloads.localConfig(tables, BUFFER_RECORDS)), log);
    for (long id = 0; id < KEYS; id++) {
      log.upsert(id);
    }
    group.start(1);
    group.quiesce(Workloads.BATCH, QUIESCE_POLLS);
    String scenario = "ownership changes seed " + seed + ", tasks.max ";
    String table = Workloads.table(cell, tables);
    MatrixAudit.check(scenario + 1, cell, table, log, Workloads.CONNECTOR);

    int kills = 0;
    String sets = "1";
    for (int tasks : TASK_SETS) {
      if (random.nextBoolean()) {
        group.rebalance(tasks);
      } else {
        group.killAll();
        group.start(tasks);
        kills++;
      }
      kills += Workloads.touchExistingWhileRunning(log, KEYS, group, ROUNDS, random);
      group.quiesce(Workloads.BATCH, QUIESCE_POLLS);
      sets += " → " + tasks;
      MatrixAudit.check(scenario + sets, cell, table, log, Workloads.CONNECTOR);
    }
    group.stopAll();
    System.out.printf("RELIABILITY scenario=ownership changes [%s] seed=%d records=%d tasks dropped=%d%n", cell, seed, log.size(),
        kills);
    MatrixAudit.check(scenario + sets + ", stopped", cell, table, log, Workloads.CONNECTOR);
  }
}
