package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.Matrix.Case;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A topic whose partition count grows in the middle of the stream (a routine step to scale a
 * connector), 2 → 6 and 2 → 3: the producer hashes keys over the new count (Kafka's default
 * partitioner), so most keys continue in another partition, some of them in an old one; the
 * consumer group rebalances onto every partition. Updates and deletes of keys written before the
 * growth must find their rows wherever they were written (with the default
 * {@code lookup.scope=partition}): no key may end with two live rows.
 *
 * <p>In the first scenario the sink has read the topic to its end when it grows. In the second it
 * lags behind (users grow a topic to scale a connector that is behind): a key's older changes are
 * still unread in its old partition while its newer ones, deletes and re-inserts among them, are
 * committed from the new one, and tasks die on the way. Kafka orders a key's changes only within a
 * partition, so the table must order them by their source position (docs/design.md, "Topics that
 * grow").
 */
class PartitionGrowthIT {
  private static final int KEYS = 1_000;
  private static final int BUFFER_RECORDS = 60;
  private static final int ROUNDS = 8;
  private static final int TASKS = 2;
  private static final int QUIESCE_POLLS = 2_000;
  /** Polls before the growth in the lagging scenario: the sink has read a fraction of the backlog. */
  private static final int LAGGING_POLLS = 10;

  @TempDir Path tables;

  static Stream<Arguments> growths() {
    return Matrix.across(List.of(Case.of("2 → 6 partitions", 2, 6), Case.of("2 → 3 partitions", 2, 3)));
  }

  @ParameterizedTest(name = "[{0}] {1}", allowZeroInvocations = true)
  @MethodSource("growths")
  void keysRehashedAfterGrowthKeepOneLiveRow(Cell cell, String name, int from, int to) {
    long seed = Workloads.seed("partition growth " + name + " [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, from);
    TaskGroup group = new TaskGroup(cell.apply(Workloads.localConfig(tables, BUFFER_RECORDS)), log);
    Workloads.mixed(log, KEYS, random);
    group.start(TASKS);
    group.quiesce(Workloads.BATCH, QUIESCE_POLLS);

    Map<Long, Integer> before = new HashMap<>();
    log.ids().forEach(id -> before.put(id, log.partitionOf(id)));
    log.grow(to);
    long moved = before.entrySet().stream().filter(key -> log.partitionOf(key.getKey()) != key.getValue()).count();
    long movedToOld = before.entrySet().stream()
        .filter(key -> log.partitionOf(key.getKey()) != key.getValue() && log.partitionOf(key.getKey()) < from).count();
    group.rebalance(TASKS);
    Workloads.touchExistingWhileRunning(log, KEYS, group, ROUNDS, random);
    group.quiesce(Workloads.BATCH, QUIESCE_POLLS);
    group.stopAll();
    System.out.printf("RELIABILITY scenario=partition growth %s [%s] seed=%d keys=%d moved=%d moved into an old partition=%d%n",
        name, cell, seed, before.size(), moved, movedToOld);

    MatrixAudit.check("partition growth " + name + " seed " + seed, cell, Workloads.table(cell, tables), log,
        Workloads.CONNECTOR);
  }

  @ParameterizedTest(name = "[{0}] {1}", allowZeroInvocations = true)
  @MethodSource("growths")
  void keysRehashedWhileTheirOldPartitionsLagLandInSourceOrder(Cell cell, String name, int from, int to) {
    long seed = Workloads.seed("partition growth while lagging " + name + " [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, from);
    TaskGroup group = new TaskGroup(cell.apply(Workloads.localConfig(tables, BUFFER_RECORDS)), log);
    Workloads.mixed(log, KEYS, random);
    group.start(TASKS);
    for (int poll = 0; poll < LAGGING_POLLS; poll++) {
      group.pollAll(Workloads.BATCH, random, 2);
    }

    log.grow(to);
    group.rebalance(TASKS);
    int kills = Workloads.touchExistingWhileRunning(log, KEYS, group, ROUNDS, random);
    group.quiesce(Workloads.BATCH, QUIESCE_POLLS);
    group.stopAll();
    System.out.printf("RELIABILITY scenario=partition growth while lagging %s [%s] seed=%d keys=%d kills=%d%n", name, cell, seed,
        log.ids().size(), kills);

    MatrixAudit.check("partition growth while lagging " + name + " seed " + seed, cell, Workloads.table(cell, tables), log,
        Workloads.CONNECTOR);
  }
}
