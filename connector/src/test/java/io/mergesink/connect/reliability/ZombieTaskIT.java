package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.ingest.testing.TableAudit;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A zombie task (docs/design.md, "Exactly once"): task A stalls with changes of partition 0 buffered, Connect moves the
 * partition to task B, which commits newer changes of the same keys; when A wakes up, its commit
 * of partition 0 is refused (fenced), its stale changes never reach the table, and once Connect
 * revokes the partition from A, nothing is lost or doubled. On local disk and in the object stores
 * (S3, Azure), where the fencing rests on the conditional put of the commit.
 */
class ZombieTaskIT {
  private static final int KEYS = 400;
  private static final int BATCH = 50;

  @TempDir Path tables;

  static Stream<Cell> cells() {
    return Matrix.cellsOnBothStorages(Cell.of(Cell.Layout.APPEND, Cell.Compaction.OFF),
        Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.FORCED).onS3());
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("cells")
  void staleTaskIsFencedAndItsBufferedChangesNeverLand(Cell cell) {
    long seed = Workloads.seed("zombie [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, 2);
    TopicPartition p0 = new TopicPartition(Workloads.TOPIC, 0);
    TopicPartition p1 = new TopicPartition(Workloads.TOPIC, 1);
    Map<String, String> config = Workloads.config(cell, tables, 100_000);
    String table = Workloads.table(cell, tables);
    Map<TopicPartition, Long> group = new HashMap<>();
    for (long id = 0; id < KEYS; id++) {
      log.upsert(id);
    }

    TaskDriver zombie = new TaskDriver("task-A", config, log, group);
    zombie.open(List.of(p0, p1));
    zombie.runToEnd(BATCH, 100);
    long committedByZombie = log.endOffset(0) - 1;
    // A polls updates of every key but stalls before committing them.
    for (long id = 0; id < KEYS; id++) {
      log.upsert(id);
    }
    while (zombie.poll(BATCH) > 0) {
      // buffer only
    }

    // Its partitions move on: B owns partition 0 now and writes newer versions of the same keys.
    TaskDriver successor = new TaskDriver("task-B", config, log, group);
    successor.open(List.of(p0));
    Workloads.changes(log, KEYS, 600, random);
    successor.runToEnd(BATCH, 200);
    Optional<Long> successorPosition = txn(cell, table, p0);
    assertThat(successorPosition).as("B committed partition 0").hasValueSatisfying(v -> assertThat(v).isGreaterThan(committedByZombie));

    // A wakes up and commits: partition 0 is refused, its stale rows stay out.
    zombie.preCommit();
    assertThat(txn(cell, table, p0)).as("the zombie's commit of partition 0 is fenced").isEqualTo(successorPosition);
    TableAudit.rows(cell.tables(), "zombie: partition 0 holds B's changes, none of the zombie's stale ones [" + cell + "]",
        table, log.expected(cell), log.fromPartition(cell, 0));

    // Connect finally revokes partition 0 from A; A keeps partition 1, both read to the end.
    zombie.close(List.of(p0));
    Workloads.changes(log, KEYS, 300, random);
    zombie.runToEnd(BATCH, 200);
    successor.runToEnd(BATCH, 200);
    zombie.stop();
    successor.stop();

    MatrixAudit.check("zombie seed " + seed, cell, table, log, Workloads.CONNECTOR);
  }

  private static Optional<Long> txn(Cell cell, String table, TopicPartition partition) {
    return cell.tables().position(table, Workloads.CONNECTOR + ":" + partition.topic() + ":" + partition.partition());
  }
}
