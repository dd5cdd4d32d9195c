package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.reliability.FaultPlan.Effect;
import io.mergesink.connect.reliability.FaultPlan.Fault;
import io.mergesink.connect.reliability.FaultPlan.Step;
import java.nio.file.Path;
import java.util.HashMap;
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
 * the end. The table must equal the source: no row lost, none duplicated, txn versions at the end
 * offsets, every referenced file present.
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
    FaultyFileSystem.forgetCreated();
  }

  static Stream<Arguments> crashPoints() {
    return Stream.of(
        Arguments.of("data file half written", Fault.of(Step.WRITE, FaultPlan.DATA_FILE, 4, Effect.CRASH)),
        Arguments.of("files written, before the log entry", Fault.of(Step.CREATE, FaultPlan.COMMIT, 4, Effect.CRASH)),
        Arguments.of("log entry half written", Fault.of(Step.WRITE, FaultPlan.COMMIT, 4, Effect.CRASH)),
        Arguments.of("log entry written, before preCommit", Fault.of(Step.AFTER_CLOSE, FaultPlan.COMMIT, 4, Effect.CRASH)),
        Arguments.of("deletion vector file half written", Fault.of(Step.WRITE, FaultPlan.DV_FILE, 2, Effect.CRASH)),
        Arguments.of("deletion vector written, before the log entry", Fault.of(Step.AFTER_CLOSE, FaultPlan.DV_FILE, 2, Effect.CRASH)),
        Arguments.of("before the checkpoint", Fault.of(Step.CREATE, FaultPlan.CHECKPOINT, 1, Effect.CRASH)),
        Arguments.of("checkpoint half written", Fault.of(Step.WRITE, FaultPlan.CHECKPOINT, 1, Effect.CRASH)),
        Arguments.of("checkpoint written, before _last_checkpoint", Fault.of(Step.AFTER_CLOSE, FaultPlan.CHECKPOINT, 1, Effect.CRASH)),
        Arguments.of("_last_checkpoint half written", Fault.of(Step.WRITE, "_delta_log/_last_checkpoint$", 1, Effect.CRASH)));
  }

  @ParameterizedTest(name = "crash: {0}")
  @MethodSource("crashPoints")
  void restartAfterCrashLosesAndDuplicatesNothing(String step, Fault crash) {
    long seed = Workloads.seed("crash " + step);
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    Workloads.mixed(log, KEYS, random);
    Map<String, String> config = Workloads.faultyConfig(tables, BUFFER_RECORDS);
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
      }
    }
    assertThat(crashed).as("the crash at '" + step + "' happened; faults fired: " + FaultPlan.fired() + "; files created: "
        + FaultyFileSystem.created().stream().map(p -> p.substring(p.indexOf(Workloads.TOPIC))).distinct().limit(40).toList()).isTrue();

    FaultPlan.reset();
    TaskDriver second = new TaskDriver("task-0", config, log, group);
    second.open(log.topicPartitions());
    second.runToEnd(BATCH, 1_000);
    Workloads.changes(log, KEYS, 400, random);
    second.runToEnd(BATCH, 1_000);
    second.stop();

    TableAudit.check("crash: " + step + " seed " + seed, tables.resolve(Workloads.TOPIC), log.model(), log.endOffsets(),
        Workloads.CONNECTOR);
  }
}
