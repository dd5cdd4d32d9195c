package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.reliability.FaultPlan.Effect;
import io.mergesink.connect.reliability.FaultPlan.Fault;
import io.mergesink.connect.reliability.FaultPlan.Step;
import io.mergesink.connect.reliability.Matrix.Case;
import java.nio.file.Path;
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
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A task killed at every step of a commit (docs/design.md, "How it is tested"): the process dies at the chosen file
 * operation, nothing more of it runs, a new task instance opens the same partitions and reads to
 * the end. The table must hold what the source says: no row lost, none duplicated, txn versions at
 * the end offsets, every referenced file present. Each crash point runs in the cells of the
 * {@link Matrix} (deletion vector crash points where there are deletion vectors; Delta's log steps
 * in Delta cells, Iceberg's files and metadata in Iceberg cells); with compaction
 * forced, the crash may hit a compaction's commit. The crash hits the storage's operations
 * ({@link FaultyStorage}): a commit is a put-if-absent that either happened or not; a half-written
 * upload is never completed on S3 or Azure, and leaves a partial file on local disk.
 */
class CommitCrashIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 600;
  private static final int BUFFER_RECORDS = 40;
  private static final int BATCH = 25;

  @TempDir Path tables;

  @BeforeEach
  @AfterEach
  void resetFaults() {
    FaultPlan.reset();
  }

  static Stream<Arguments> crashPoints() {
    return Matrix.acrossStorages(Stream.concat(Stream.of(
        Case.of("data file half written", Fault.of(Step.WRITE, FaultPlan.DATA_FILE, 4, Effect.CRASH)).alsoOnAzureInCi(),
        Case.of("files written, before the log entry", Fault.of(Step.CREATE, FaultPlan.COMMIT, 4, Effect.CRASH)),
        Case.of("log entry half written", Fault.of(Step.WRITE, FaultPlan.COMMIT, 4, Effect.CRASH)).alsoOnS3InCi(),
        Case.of("log entry written, before preCommit", Fault.of(Step.AFTER_CLOSE, FaultPlan.COMMIT, 4, Effect.CRASH))
            .alsoOnS3InCi(),
        Case.in(Cell::writesDeletionVectors, "deletion vector file half written", Fault.of(Step.WRITE, FaultPlan.DV_FILE, 2, Effect.CRASH))
            .alsoOnS3InCi(),
        Case.in(Cell::writesDeletionVectors, "deletion vector written, before the log entry",
            Fault.of(Step.AFTER_CLOSE, FaultPlan.DV_FILE, 2, Effect.CRASH)),
        Case.of("before the checkpoint", Fault.of(Step.CREATE, FaultPlan.CHECKPOINT, 1, Effect.CRASH)),
        Case.of("checkpoint half written", Fault.of(Step.WRITE, FaultPlan.CHECKPOINT, 1, Effect.CRASH)).alsoOnS3InCi(),
        Case.of("checkpoint written, before _last_checkpoint", Fault.of(Step.AFTER_CLOSE, FaultPlan.CHECKPOINT, 1, Effect.CRASH)),
        Case.of("_last_checkpoint half written", Fault.of(Step.WRITE, "_delta_log/_last_checkpoint$", 1, Effect.CRASH)))
        .map(scenarioCase -> scenarioCase.onlyIn(Cell::isDelta)), Stream.concat(icebergCrashPoints(), paimonCrashPoints()))
        .toList());
  }

  /**
   * The steps of a Paimon commit, through the sink's file IO over the faulty storage: data files,
   * deletion-vector index files, manifests, and the snapshot published with the positions.
   */
  private static Stream<Case> paimonCrashPoints() {
    return Stream.of(
        Case.of("Paimon data file half written", Fault.of(Step.WRITE, FaultPlan.PAIMON_DATA_FILE, 3, Effect.CRASH)).notInCi(),
        Case.in(Cell::writesDeletionVectors, "Paimon deletion vectors written, before the manifests",
            Fault.of(Step.AFTER_CLOSE, FaultPlan.PAIMON_INDEX, 2, Effect.CRASH)).notInCi(),
        Case.of("Paimon manifest half written", Fault.of(Step.WRITE, FaultPlan.PAIMON_MANIFEST, 3, Effect.CRASH))
            .notInCi(),
        Case.of("Paimon snapshot published, before preCommit", Fault.of(Step.AFTER_CLOSE, FaultPlan.PAIMON_SNAPSHOT, 3,
            Effect.CRASH)).notInCi())
        .map(scenarioCase -> scenarioCase.onlyIn(cell -> cell.format() == Cell.Format.PAIMON));
  }

  /**
   * The steps of an Iceberg commit, through the sink's file IO over the faulty storage: data and
   * delete files, manifests, the manifest list, the metadata file the catalog is then pointed at.
   */
  private static Stream<Case> icebergCrashPoints() {
    return Stream.of(
        Case.of("Iceberg data file half written", Fault.of(Step.WRITE, FaultPlan.ICEBERG_PARQUET, 4, Effect.CRASH)).notInCi(),
        Case.in(Cell::writesDeletionVectors, "Iceberg delete file written, before the manifests",
            Fault.of(Step.AFTER_CLOSE, "/data/[^/]+\\.(puffin|parquet)$", 6, Effect.CRASH)).notInCi(),
        Case.of("Iceberg manifest half written", Fault.of(Step.WRITE, FaultPlan.ICEBERG_MANIFEST, 3, Effect.CRASH)).notInCi(),
        Case.of("Iceberg manifest list written", Fault.of(Step.AFTER_CLOSE, FaultPlan.ICEBERG_MANIFEST_LIST, 3, Effect.CRASH))
            .notInCi(),
        Case.of("Iceberg metadata file half written", Fault.of(Step.WRITE, FaultPlan.ICEBERG_METADATA, 4, Effect.CRASH))
            .alsoOnS3InCi(),
        Case.of("Iceberg metadata file written, before the catalog points at it",
            Fault.of(Step.AFTER_CLOSE, FaultPlan.ICEBERG_METADATA, 4, Effect.CRASH)).notInCi())
        .map(scenarioCase -> scenarioCase.onlyIn(Cell::isIceberg));
  }

  @ParameterizedTest(name = "[{0}] crash: {1}", allowZeroInvocations = true)
  @MethodSource("crashPoints")
  void restartAfterCrashLosesAndDuplicatesNothing(Cell cell, String step, Fault crash) {
    long seed = Workloads.seed("crash " + step + " [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    Workloads.mixed(log, KEYS, random);
    Map<String, String> config = Workloads.faultyConfig(cell, tables, BUFFER_RECORDS);
    Map<TopicPartition, Long> group = new HashMap<>();
    FaultPlan.add(crash);

    TaskDriver first = new TaskDriver("task-0", config, log, group);
    first.open(log.topicPartitions());
    boolean crashed = false;
    for (int poll = 0; poll < 1_000 && !crashed; poll++) {
      try {
        first.poll(BATCH);
        if (poll % 2 == 1) {
          first.preCommit();
        }
      } catch (SimulatedCrash e) {
        crashed = true;
      } catch (RuntimeException e) {
        if (!SimulatedCrash.among(e)) {
          throw e;
        }
        crashed = true;
      }
    }
    assertThat(crashed).as("the crash at '" + step + "' happened; faults fired: " + FaultPlan.fired() + "; files created: "
        + FaultPlan.created().stream().map(p -> p.contains(Workloads.TOPIC) ? p.substring(p.indexOf(Workloads.TOPIC)) : p)
            .distinct().limit(40).toList())
        .isTrue();

    FaultPlan.reset();
    TaskDriver second = new TaskDriver("task-0", config, log, group);
    second.open(log.topicPartitions());
    second.runToEnd(BATCH, 1_000);
    Workloads.changes(log, KEYS, 400, random);
    second.runToEnd(BATCH, 1_000);
    second.stop();

    MatrixAudit.check("crash: " + step + " seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }
}
