package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.connect.reliability.FaultPlan.Effect;
import io.mergesink.connect.reliability.FaultPlan.Fault;
import io.mergesink.connect.reliability.FaultPlan.Step;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Records of a partition that arrive before Connect calls {@code open} for it (a rebalance race
 * under the consumer group protocol of KIP-848): the task opens the partition itself, resumes from
 * the tables' position, and nothing is lost or doubled, also when Connect's {@code open} follows.
 * A record of a partition the task does not own at all still stops it, naming the record.
 */
class LateOpenIT {
  private static final int KEYS = 300;
  private static final int BATCH = 40;

  @TempDir Path tables;

  @AfterEach
  void resetFaults() {
    FaultPlan.reset();
  }

  // in CI also an Iceberg cell: positions resumed from snapshot summaries, position delete files
  static Stream<Cell> resumeCells() {
    return Matrix.cells(List.of(Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.FORCED),
        Cell.iceberg(Cell.Format.ICEBERG_V2, Cell.Layout.DELETION_VECTORS)), cell -> true);
  }

  // in CI also an Iceberg cell (an Iceberg append table created by the open that follows) and a
  // Paimon cell (a primary-key table with deletion vectors, its positions in snapshot properties)
  static Stream<Cell> newTableCells() {
    return Matrix.cells(List.of(Cell.of(Cell.Layout.APPEND, Cell.Compaction.FORCED),
        Cell.iceberg(Cell.Format.ICEBERG, Cell.Layout.APPEND), Cell.paimon(Cell.Layout.DELETION_VECTORS)), cell -> true);
  }

  // Delta cells list their log, Iceberg cells read their metadata file, Paimon cells their latest snapshot at open (openFault)
  static Stream<Cell> openFaultCells() {
    return Matrix.cells(Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.FORCED));
  }

  /**
   * What opening a table reads first: a Delta table lists its log, an Iceberg table reads its current
   * metadata file, a Paimon table its latest snapshot (for the positions).
   */
  private static Fault openFault(Cell cell) {
    if (cell.format() == Cell.Format.PAIMON) {
      return Fault.of(Step.READ, "/snapshot/snapshot-\\d+$", 1, Effect.IO_ERROR);
    }
    return cell.isDelta() ? Fault.of(Step.LIST, FaultPlan.LOG_DIRECTORY, 1, Effect.IO_ERROR)
        : Fault.of(Step.READ, FaultPlan.ICEBERG_METADATA, 1, Effect.IO_ERROR);
  }

  // Delta cells only: re-reading an Iceberg table whose metadata did not change reads no file
  static Stream<Cell> closeFaultCells() {
    return Matrix.cells(Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.FORCED), Cell::isDelta);
  }

  static Stream<Cell> notAssignedCells() {
    return Matrix.cells(Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.OFF));
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("resumeCells")
  void recordsBeforeOpenResumeFromTheTablesAndLandExactlyOnce(Cell cell) {
    long seed = Workloads.seed("late-open [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, 2);
    TopicPartition p0 = new TopicPartition(Workloads.TOPIC, 0);
    TopicPartition p1 = new TopicPartition(Workloads.TOPIC, 1);
    Map<String, String> config = cell.apply(Workloads.localConfig(tables, 100_000));
    landWithoutStoringOffsets(config, log, List.of(p0, p1), random);

    Map<TopicPartition, Long> group = new HashMap<>();
    TaskDriver next = new TaskDriver("task-B", config, log, group);
    next.assignWithoutOpen(List.of(p0, p1));
    assertThat(next.poll(BATCH)).as("records of both partitions are delivered before open").isPositive();
    next.poll(BATCH);
    next.openAssigned(List.of(p0, p1));
    next.runToEnd(BATCH, 200);
    next.stop();

    MatrixAudit.check("late open seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("newTableCells")
  void recordsBufferedBeforeOpenOfANewTableAreKeptWhenOpenFollows(Cell cell) {
    long seed = Workloads.seed("late-open-new-table [" + cell + "]");
    RecordLog log = new RecordLog(Workloads.TOPIC, 2);
    List<TopicPartition> both = List.of(new TopicPartition(Workloads.TOPIC, 0), new TopicPartition(Workloads.TOPIC, 1));
    Workloads.changes(log, KEYS, 600, new Random(seed));

    TaskDriver task = new TaskDriver("task-A", cell.apply(Workloads.localConfig(tables, 100_000)), log, new HashMap<>());
    task.assignWithoutOpen(both);
    assertThat(task.poll(BATCH)).as("records delivered before open").isPositive();
    task.openAssigned(both);
    task.runToEnd(BATCH, 200);
    task.stop();

    MatrixAudit.check("late open, new table, seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }

  /**
   * Connect fails a task on any exception from {@code open}; a storage failure there must not: the
   * partitions open at their first record instead, where Connect retries the batch until storage
   * answers again.
   */
  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("openFaultCells")
  void aStorageFailureWhileOpeningLeavesThePartitionsToOpenAtTheirFirstRecord(Cell cell) {
    long seed = Workloads.seed("open-fault [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, 2);
    List<TopicPartition> both = List.of(new TopicPartition(Workloads.TOPIC, 0), new TopicPartition(Workloads.TOPIC, 1));
    Map<String, String> config = Workloads.faultyConfig(cell, tables, 100_000);
    landWithoutStoringOffsets(config, log, both, random);

    FaultPlan.add(openFault(cell).times(3));
    TaskDriver next = new TaskDriver("task-B", config, log, new HashMap<>());
    next.open(both);
    assertThat(FaultPlan.fired()).as("open met the storage failure").isNotEmpty();
    next.runToEnd(BATCH, 200);
    next.stop();

    MatrixAudit.check("open fault seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }

  /**
   * Connect fails a task on any exception from {@code close} too. A storage failure while the task
   * re-reads its tables for the partitions it keeps must not: the task goes on, re-reads them before
   * its next commit (where the failure repeats and the commit is retried), and the next owner of the
   * revoked partition writes beside it without a key lost or doubled.
   */
  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("closeFaultCells")
  void aStorageFailureWhileReReadingTheTablesAfterARevocationKeepsTheTaskRunning(Cell cell) {
    long seed = Workloads.seed("close-fault [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, 2);
    TopicPartition p0 = new TopicPartition(Workloads.TOPIC, 0);
    TopicPartition p1 = new TopicPartition(Workloads.TOPIC, 1);
    Map<String, String> config = Workloads.faultyConfig(cell, tables, 100_000);
    Map<TopicPartition, Long> group = new HashMap<>();
    Workloads.changes(log, KEYS, 600, random);
    TaskDriver first = new TaskDriver("task-A", config, log, group);
    first.open(List.of(p0, p1));
    first.runToEnd(BATCH, 100);

    FaultPlan.add(Fault.of(Step.LIST, FaultPlan.LOG_DIRECTORY, 1, Effect.IO_ERROR).times(3));
    first.close(List.of(p1));
    assertThat(FaultPlan.fired()).as("close met the storage failure").isNotEmpty();
    Workloads.changes(log, KEYS, 600, random);
    first.runToEnd(BATCH, 200);
    assertThat(FaultPlan.exhausted()).as("the task's commits after close met the failure too").isTrue();

    TaskDriver next = new TaskDriver("task-B", config, log, group);
    next.open(List.of(p1));
    Workloads.changes(log, KEYS, 600, random);
    first.poll(BATCH);
    next.poll(BATCH);
    first.preCommit();
    next.preCommit();
    next.runToEnd(BATCH, 200);
    first.runToEnd(BATCH, 200);
    first.stop();
    next.stop();

    MatrixAudit.check("close fault seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("notAssignedCells")
  void aRecordOfAPartitionNotAssignedStopsTheTaskNamingIt(Cell cell) {
    RecordLog log = new RecordLog(Workloads.TOPIC, 2);
    Workloads.changes(log, KEYS, 100, new Random(Workloads.seed("not-assigned [" + cell + "]")));
    TaskDriver task = new TaskDriver("task-A", cell.apply(Workloads.localConfig(tables, 100_000)), log, new HashMap<>());
    task.open(List.of(new TopicPartition(Workloads.TOPIC, 0)));

    assertThatThrownBy(() -> task.putFrom(1, 0))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining(Workloads.TOPIC + "-1 at offset 0, a partition this task was not assigned");
  }

  /**
   * A first task lands changes of {@code partitions}, but the group never stores its offsets: the
   * consumer of the next owner starts at 0 while the table holds the partitions to their ends. Then
   * more changes come.
   */
  private static void landWithoutStoringOffsets(Map<String, String> config, RecordLog log, List<TopicPartition> partitions,
      Random random) {
    Workloads.changes(log, KEYS, 600, random);
    TaskDriver first = new TaskDriver("task-A", config, log, new HashMap<>());
    first.open(partitions);
    first.runToEnd(BATCH, 100);
    first.stop();
    Workloads.changes(log, KEYS, 600, random);
  }
}
