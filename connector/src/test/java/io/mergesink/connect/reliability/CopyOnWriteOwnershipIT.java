package io.mergesink.connect.reliability;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partitions changing hands after files were written for several of them, under copy-on-write
 * (docs/design.md, "File ownership"): one task owning all four partitions writes every key, then
 * two tasks (partitions 0, 1 and 2, 3) update and delete keys written before, each rewriting files
 * that also hold the other's rows, while tasks are dropped without stopping (a crash) and replaced.
 * A rewrite must keep the owners of the rows it carries over, or the other task's key index no longer
 * sees them and its next change of such a key adds a second live row.
 */
class CopyOnWriteOwnershipIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 400;
  private static final int BATCH = 30;

  @TempDir Path tables;

  @Test
  void rewritesKeepTheOwnersOfTheRowsTheyCarry() {
    long seed = Workloads.seed("copy-on-write ownership");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    Map<String, String> config = Workloads.with(Workloads.localConfig(tables, 200), "merge.strategy", "copy-on-write");
    Map<TopicPartition, Long> group = new HashMap<>();
    List<TopicPartition> all = log.topicPartitions();
    List<TopicPartition> low = all.subList(0, 2);
    List<TopicPartition> high = all.subList(2, 4);

    // One task owns every partition: its files hold rows of all four.
    for (long id = 0; id < KEYS; id++) {
      log.upsert(id);
    }
    TaskDriver single = new TaskDriver("task-all", config, log, group);
    single.open(all);
    single.runToEnd(BATCH, 200);
    Workloads.changes(log, KEYS, 200, random);
    single.poll(BATCH);
    // dropped without stop: a crash with changes buffered

    // Two tasks split the partitions and change keys written before, taking turns.
    TaskDriver a = new TaskDriver("task-a", config, log, group);
    TaskDriver b = new TaskDriver("task-b", config, log, group);
    a.open(low);
    b.open(high);
    for (int round = 0; round < 6; round++) {
      Workloads.changes(log, KEYS, 150, random);
      a.runToEnd(BATCH, 200);
      b.runToEnd(BATCH, 200);
      if (round == 2) {
        // task a dies with changes buffered; its successor resumes from the table
        Workloads.changes(log, KEYS, 100, random);
        a.poll(BATCH);
        a = new TaskDriver("task-a2", config, log, group);
        a.open(low);
      }
      if (round == 4) {
        Workloads.changes(log, KEYS, 100, random);
        b.poll(BATCH);
        b = new TaskDriver("task-b2", config, log, group);
        b.open(high);
      }
    }
    a.stop();
    b.stop();

    MatrixAudit.check("copy-on-write ownership seed " + seed, Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.OFF),
        tables.resolve(Workloads.TOPIC), log, Workloads.CONNECTOR);
  }
}
