package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.FaultPlan.Effect;
import io.mergesink.connect.reliability.FaultPlan.Fault;
import io.mergesink.connect.reliability.FaultPlan.Step;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A seeded random workload (inserts, updates, deletes, key changes, truncates, one added column;
 * skewed keys) over several tasks, with random storage faults, worker crashes, rebalances and
 * zombie tasks in between; at the end the table must hold what the source says. The seed is
 * printed; replay a failure with {@code -Dsoak.seed=<seed>} (and {@code -Dreliability.cells=<cell>}).
 * {@code -Dsoak.steps} sets the length (the {@code soak} Maven profile runs a long one in every
 * cell). For narrowing a failure down: {@code -Dsoak.only=changes,zombie,...} replaces other actions
 * by changes, {@code -Dsoak.debug=true} audits the table after every step.
 *
 * <p>Truncates are issued with every partition committed before and after: a truncate travels in
 * one partition, and Kafka orders nothing across partitions, so changes of other partitions
 * racing it have no defined outcome (in the source either).
 */
class SoakIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 300;
  private static final int BUFFER_RECORDS = 80;
  private static final int BATCH = 40;
  private static final int DEFAULT_STEPS = 40;
  private static final int QUIESCE_POLLS = 3_000;
  /** The files of a Delta table that faults and crashes aim at. */
  private static final String[] DELTA_TARGETS = {FaultPlan.DATA_FILE, FaultPlan.DV_FILE, FaultPlan.COMMIT, FaultPlan.CHECKPOINT};
  /** The files of an Iceberg table that faults and crashes aim at: data, deletes, manifests, manifest lists, metadata. */
  private static final String[] ICEBERG_TARGETS = {FaultPlan.ICEBERG_PARQUET, FaultPlan.ICEBERG_DV_FILE,
      FaultPlan.ICEBERG_MANIFEST, FaultPlan.ICEBERG_MANIFEST_LIST, FaultPlan.ICEBERG_METADATA};
  /** The files of a Paimon table that faults and crashes aim at: data, deletion-vector indexes, manifests, snapshots. */
  private static final String[] PAIMON_TARGETS = {FaultPlan.PAIMON_DATA_FILE, FaultPlan.PAIMON_INDEX, FaultPlan.PAIMON_MANIFEST,
      FaultPlan.PAIMON_SNAPSHOT};

  @TempDir Path tables;
  private Map<String, String> config;
  private RecordLog log;
  private Random random;
  private TaskGroup group;
  private final Map<String, Integer> actions = new HashMap<>();

  @BeforeEach
  @AfterEach
  void resetFaults() {
    FaultPlan.reset();
  }

  static Stream<Cell> cells() {
    // in CI a plain cell and one of each CDC mode, layouts and compaction alternating; selected, the local
    // cells and the Iceberg cells on S3 too
    return Matrix.cellsInAnyStore(List.of(Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.FORCED),
        Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.OFF).in(Cell.Mode.ORDERED),
        Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.OFF).in(Cell.Mode.SOFT_DELETES),
        Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.FORCED).in(Cell.Mode.HISTORY),
        Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.OFF).in(Cell.Mode.HISTORY_ORDERED),
        Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.FORCED).in(Cell.Mode.CHANGE_FEED)),
        cell -> cell.isLocal() || !cell.isDelta());
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("cells")
  void randomWorkloadWithRandomFaultsEndsAsTheSourceSays(Cell cell) {
    long seed = Workloads.seed("soak [" + cell + "]");
    int steps = Integer.getInteger("soak.steps", DEFAULT_STEPS);
    random = new Random(seed);
    log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    Map<String, String> faulty = Workloads.faultyConfig(cell, tables, BUFFER_RECORDS);
    config = cell.truncates() ? Workloads.truncating(cell, faulty) : faulty;
    String[] targets = switch (cell.format()) {
      case DELTA -> DELTA_TARGETS;
      case ICEBERG, ICEBERG_V2 -> ICEBERG_TARGETS;
      case PAIMON -> PAIMON_TARGETS;
    };
    group = new TaskGroup(config, log);
    group.start(2, random);

    for (int step = 0; step < steps; step++) {
      int dice = random.nextInt(100);
      String only = System.getProperty("soak.only", "");
      if (!only.isEmpty() && !only.contains(actionOf(dice))) {
        dice = 0;
      }
      try {
        if (dice < 45) {
          count("changes");
          Workloads.changes(log, KEYS, 20 + random.nextInt(150), random);
          pollSome();
        } else if (dice < 60) {
          count("storage fault");
          Effect effect = random.nextBoolean() ? Effect.IO_ERROR : Effect.DISK_FULL;
          Step at = random.nextBoolean() ? Step.CREATE : Step.AFTER_CLOSE;
          FaultPlan.add(Fault.of(at, targets[random.nextInt(targets.length)], 1 + random.nextInt(3), effect)
              .times(1 + random.nextInt(3)));
          pollSome();
        } else if (dice < 70) {
          count("crash");
          Step at = Step.values()[random.nextInt(Step.values().length)];
          String target = targets[random.nextInt(targets.length)];
          FaultPlan.add(Fault.of(at, target, 1 + random.nextInt(3), Effect.CRASH));
          Workloads.changes(log, KEYS, 100, random);
          pollSome();
        } else if (dice < 80) {
          count("rebalance");
          group.stopAll();
          group.start(1 + random.nextInt(3), random);
        } else if (dice < 88) {
          count("zombie");
          zombie();
        } else if (dice < 92 && cell.truncates()) {
          count("truncate");
          // every partition committed before and after the truncate (class comment), also when a fault
          // armed by an earlier step crashes a task meanwhile: otherwise the next step's changes race it
          quiesceSurvivingCrashes();
          log.truncate(random.nextInt(PARTITIONS));
          quiesceSurvivingCrashes();
        } else if (dice < 94 && !actions.containsKey("add column")) {
          count("add column");
          log.addTierColumn();
          Workloads.changes(log, KEYS, 100, random);
          pollSome();
        } else {
          count("preCommit");
          group.tasks().forEach(TaskDriver::preCommit);
        }
      } catch (SimulatedCrash crash) {
        restartAfterCrash();
      } catch (RuntimeException failure) {
        if (!SimulatedCrash.among(failure)) {
          throw failure;
        }
        restartAfterCrash();
      }
      if (Boolean.getBoolean("soak.debug")) {
        System.out.println("SOAKDEBUG step " + step + " dice " + dice + " actions " + actions + " fired " + FaultPlan.fired());
        FaultPlan.reset();
        quiesceSurvivingCrashes();
        MatrixAudit.check("soak step " + step, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
      }
    }
    FaultPlan.reset();
    quiesceSurvivingCrashes();
    group.stopAll();
    System.out.printf("RELIABILITY scenario=soak [%s] seed=%d steps=%d records=%d actions=%s%n", cell, seed, steps, log.size(),
        actions);
    MatrixAudit.check("soak seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }

  private static String actionOf(int dice) {
    return dice < 45 ? "changes" : dice < 60 ? "fault" : dice < 70 ? "crash" : dice < 80 ? "rebalance" : dice < 88 ? "zombie"
        : dice < 92 ? "truncate" : dice < 94 ? "column" : "preCommit";
  }

  private void count(String action) {
    actions.merge(action, 1, Integer::sum);
  }

  private void pollSome() {
    for (int round = 0; round < 1 + random.nextInt(4); round++) {
      group.pollAll(BATCH, random, 3);
    }
  }

  /** Every task reads to the end and commits; a crash on the way restarts the tasks and goes on. */
  private void quiesce() {
    group.quiesce(BATCH, QUIESCE_POLLS);
  }

  private void quiesceSurvivingCrashes() {
    while (true) {
      try {
        quiesce();
        return;
      } catch (SimulatedCrash crash) {
        restartAfterCrash();
      } catch (RuntimeException failure) {
        if (!SimulatedCrash.among(failure)) {
          throw failure;
        }
        restartAfterCrash();
      }
    }
  }

  /** The worker died: its tasks are gone without any cleanup; Connect starts new ones. */
  private void restartAfterCrash() {
    count("crashed");
    FaultPlan.reset();
    group.killAll();
    group.start(1 + random.nextInt(3), random);
  }

  /**
   * A partition moves to another task while its owner is stalled with changes buffered; the stalled
   * task wakes up, commits (and is fenced for that partition), then Connect revokes the partition.
   */
  private void zombie() {
    List<TaskDriver> tasks = group.tasks();
    TaskDriver stalled = tasks.get(random.nextInt(tasks.size()));
    List<TopicPartition> owned = new ArrayList<>(stalled.assignment());
    if (owned.isEmpty()) {
      return;
    }
    TopicPartition moved = owned.get(random.nextInt(owned.size()));
    Workloads.changes(log, KEYS, 80, random);
    stalled.poll(BATCH);
    TaskDriver successor = group.startTask(List.of(moved));
    Workloads.changes(log, KEYS, 80, random);
    successor.poll(BATCH);
    successor.preCommit();
    stalled.preCommit();
    stalled.close(List.of(moved));
  }
}
