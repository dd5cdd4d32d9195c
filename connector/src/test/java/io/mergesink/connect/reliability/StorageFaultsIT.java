package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.reliability.FaultPlan.Effect;
import io.mergesink.connect.reliability.FaultPlan.Fault;
import io.mergesink.connect.reliability.FaultPlan.Step;
import io.mergesink.connect.reliability.Matrix.Case;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * I/O errors and a full disk while writing data files, deletion vectors, commits and checkpoints,
 * listing the log and reading commits and data files (docs/design.md, "How it is tested"): each fault repeats a few times in a row, then the storage recovers. The task keeps
 * its changes buffered and retries (a full buffer makes {@code put} throw a retriable error, so
 * Connect redelivers); afterwards the table is complete and every file the log references exists.
 *
 * <p>Each fault runs in the cells of the {@link Matrix} (deletion vector faults where there are
 * deletion vectors; Delta's log and checkpoints in Delta cells, Iceberg's files and metadata in
 * Iceberg cells).
 *
 * <p>Commits and checkpoints are published put-if-absent: written whole under a temporary name,
 * then hard linked on local disk, or on S3 and Azure in one conditional put, so a fault half-way leaves no
 * visible file. The faults hit the storage's operations ({@link FaultyStorage}); in an object store "disk full"
 * stands for any failed request.
 */
class StorageFaultsIT {
  private static final int PARTITIONS = 3;
  private static final int KEYS = 500;
  private static final int BUFFER_RECORDS = 60;
  private static final int BATCH = 30;
  private static final int REPEAT = 3;

  @TempDir Path tables;

  @BeforeEach
  @AfterEach
  void resetFaults() {
    FaultPlan.reset();
  }

  static Stream<Arguments> faults() {
    return Matrix.acrossStorages(Stream.concat(Stream.of(
        Case.of("I/O error creating a data file", Fault.of(Step.CREATE, FaultPlan.DATA_FILE, 3, Effect.IO_ERROR)),
        Case.of("I/O error writing a data file", Fault.of(Step.WRITE, FaultPlan.DATA_FILE, 3, Effect.IO_ERROR)).alsoOnS3InCi(),
        Case.of("disk full writing a data file", Fault.of(Step.WRITE, FaultPlan.DATA_FILE, 3, Effect.DISK_FULL)),
        Case.of("I/O error closing a data file", Fault.of(Step.AFTER_CLOSE, FaultPlan.DATA_FILE, 3, Effect.IO_ERROR)),
        Case.in(Cell::writesDeletionVectors, "disk full creating a deletion vector",
            Fault.of(Step.CREATE, FaultPlan.DV_FILE, 2, Effect.DISK_FULL)),
        Case.in(Cell::writesDeletionVectors, "I/O error writing a deletion vector",
            Fault.of(Step.WRITE, FaultPlan.DV_FILE, 2, Effect.IO_ERROR)).alsoOnS3InCi(),
        Case.of("disk full creating a commit", Fault.of(Step.CREATE, FaultPlan.COMMIT, 4, Effect.DISK_FULL)),
        Case.of("I/O error putting a commit", Fault.of(Step.WRITE, FaultPlan.COMMIT, 4, Effect.IO_ERROR)).alsoOnS3InCi(),
        Case.of("I/O error after a commit was written", Fault.of(Step.AFTER_CLOSE, FaultPlan.COMMIT, 4, Effect.IO_ERROR))
            .alsoOnAzureInCi(),
        Case.of("I/O error listing the log", Fault.of(Step.LIST, FaultPlan.LOG_DIRECTORY, 3, Effect.IO_ERROR)).alsoOnS3InCi(),
        // Compaction reads data files.
        Case.in(cell -> cell.compaction() == Cell.Compaction.FORCED, "I/O error reading a data file",
            Fault.of(Step.READ, FaultPlan.DATA_FILE, 2, Effect.IO_ERROR)).alsoOnS3InCi(),
        Case.of("disk full creating a checkpoint", Fault.of(Step.CREATE, FaultPlan.CHECKPOINT, 1, Effect.DISK_FULL)),
        Case.of("I/O error after a checkpoint was written", Fault.of(Step.AFTER_CLOSE, FaultPlan.CHECKPOINT, 1, Effect.IO_ERROR)),
        Case.of("disk full writing _last_checkpoint", Fault.of(Step.WRITE, "_delta_log/_last_checkpoint$", 1, Effect.DISK_FULL)))
        .map(scenarioCase -> scenarioCase.onlyIn(Cell::isDelta)), Stream.concat(icebergFaults(), paimonFaults())).toList());
  }

  /**
   * Faults of Iceberg's files, through the sink's file IO over the faulty storage; under {@code -Psoak}
   * only (a case takes about 30 s, mostly the task's retries), CI crashes Iceberg commits instead.
   */
  private static Stream<Case> icebergFaults() {
    return Stream.of(
        Case.of("I/O error writing an Iceberg data file", Fault.of(Step.WRITE, FaultPlan.ICEBERG_PARQUET, 3, Effect.IO_ERROR))
            .notInCi(),
        Case.of("I/O error after an Iceberg data file was written",
            Fault.of(Step.AFTER_CLOSE, FaultPlan.ICEBERG_PARQUET, 3, Effect.IO_ERROR)).notInCi(),
        Case.in(cell -> cell.writesDeletionVectors() && cell.format() == Cell.Format.ICEBERG,
            "disk full writing an Iceberg deletion vector", Fault.of(Step.WRITE, FaultPlan.ICEBERG_DV_FILE, 2, Effect.DISK_FULL))
            .notInCi(),
        Case.of("I/O error writing an Iceberg manifest", Fault.of(Step.WRITE, FaultPlan.ICEBERG_MANIFEST, 2, Effect.IO_ERROR))
            .notInCi(),
        Case.of("I/O error writing an Iceberg metadata file", Fault.of(Step.WRITE, FaultPlan.ICEBERG_METADATA, 3, Effect.IO_ERROR))
            .notInCi(),
        Case.of("I/O error after an Iceberg metadata file was written",
            Fault.of(Step.AFTER_CLOSE, FaultPlan.ICEBERG_METADATA, 3, Effect.IO_ERROR)).notInCi(),
        Case.of("I/O error reading Iceberg metadata", Fault.of(Step.READ, FaultPlan.ICEBERG_METADATA, 3, Effect.IO_ERROR)).notInCi(),
        Case.in(cell -> cell.compaction() == Cell.Compaction.FORCED, "I/O error reading an Iceberg data file",
            Fault.of(Step.READ, FaultPlan.ICEBERG_PARQUET, 2, Effect.IO_ERROR)).notInCi())
        .map(scenarioCase -> scenarioCase.onlyIn(Cell::isIceberg));
  }

  /**
   * Faults of Paimon's files, through the sink's file IO over the faulty storage (Paimon hands them on
   * inside its runtime exceptions, from its writer and manifest threads too); under {@code -Psoak} only.
   */
  private static Stream<Case> paimonFaults() {
    return Stream.of(
        Case.of("I/O error writing a Paimon data file", Fault.of(Step.WRITE, FaultPlan.PAIMON_DATA_FILE, 3, Effect.IO_ERROR))
            .notInCi(),
        Case.in(Cell::writesDeletionVectors, "disk full writing a Paimon deletion-vector index",
            Fault.of(Step.WRITE, FaultPlan.PAIMON_INDEX, 2, Effect.DISK_FULL)).notInCi(),
        Case.of("I/O error creating a Paimon manifest", Fault.of(Step.CREATE, FaultPlan.PAIMON_MANIFEST, 2, Effect.IO_ERROR))
            .notInCi(),
        Case.of("I/O error reading a Paimon manifest", Fault.of(Step.READ, FaultPlan.PAIMON_MANIFEST, 2, Effect.IO_ERROR))
            .notInCi(),
        Case.of("I/O error publishing a Paimon snapshot", Fault.of(Step.WRITE, FaultPlan.PAIMON_SNAPSHOT, 3, Effect.IO_ERROR))
            .notInCi())
        .map(scenarioCase -> scenarioCase.onlyIn(cell -> cell.format() == Cell.Format.PAIMON));
  }

  @ParameterizedTest(name = "[{0}] {1}", allowZeroInvocations = true)
  @MethodSource("faults")
  void taskRetriesAndTheTableIsCompleteAfterRecovery(Cell cell, String name, Fault fault) {
    long seed = Workloads.seed("storage fault " + name + " [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    Workloads.mixed(log, KEYS, random);
    FaultPlan.add(fault.times(REPEAT));
    TaskDriver task = new TaskDriver("task-0", Workloads.faultyConfig(cell, tables, BUFFER_RECORDS), log, new HashMap<>());
    task.open(log.topicPartitions());

    task.runToEnd(BATCH, 2_000);
    assertThat(FaultPlan.exhausted()).as("the fault fired " + REPEAT + " times: " + FaultPlan.fired()).isTrue();
    Workloads.changes(log, KEYS, 300, random);
    task.runToEnd(BATCH, 2_000);
    task.stop();

    MatrixAudit.check("storage fault: " + name + " seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }
}
