package io.mergesink.connect.reliability;

import io.mergesink.connect.testing.CustomerEvents;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.ChangeSet;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.merge.TableWriter;
import io.mergesink.core.merge.WriterOptions;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another writer commits to the sink's table between the sink's planning and its commit
 * (docs/design.md, "Concurrency"): an unrelated append (new keys), and a copy-on-write
 * rewrite of the very files holding keys the sink is about to update (same rows, new files, the
 * old ones removed, as a compaction would). The sink re-plans; the table equals the model plus
 * the appended rows.
 */
class ConcurrentWriterIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 800;
  private static final int BATCH = 40;
  private static final int ROUNDS = 8;

  @TempDir Path tables;

  @Test
  void sinkReplansAroundAppendsAndRewritesOfItsFiles() throws IOException, FencedException {
    long seed = Workloads.seed("concurrent writer");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    Map<TopicPartition, Long> group = new HashMap<>();
    TaskDriver sink = new TaskDriver("task-0", Workloads.localConfig(tables, 100_000), log, group);
    sink.open(log.topicPartitions());
    for (long id = 0; id < KEYS; id++) {
      log.upsert(id);
    }
    sink.runToEnd(1_000, 10);

    String root = tables.resolve(Workloads.TOPIC).toString();
    DeltaTable table = DeltaTable.forPath(HadoopStorage.withDefaults(), root);
    TableWriter appender = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS), List.of("id"));
    TableWriter rewriter = table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE), List.of("id"));
    Map<Long, Row> external = new HashMap<>();
    long nextExternalId = -1;

    for (int round = 0; round < ROUNDS; round++) {
      // The sink polls a burst of updates (buffered, not committed yet) ...
      Set<Long> updated = new java.util.HashSet<>();
      for (int i = 0; i < 150; i++) {
        long id = Workloads.skewed(KEYS, random);
        log.upsert(id);
        updated.add(id);
      }
      sink.poll(BATCH * 10);
      // ... another writer commits: an append of new keys, or a rewrite of the files holding keys the sink will update.
      if (round % 2 == 0) {
        ChangeSet.Builder append = ChangeSet.builder();
        for (int i = 0; i < 25; i++) {
          Row row = CustomerEvents.expectedRow(nextExternalId, 1);
          external.put(nextExternalId--, row);
          append.upsert(row);
        }
        appender.refresh();
        appender.commit(append.build());
      } else {
        ChangeSet.Builder rewrite = ChangeSet.builder();
        List<Row> current = KernelTables.readRows(root).stream()
            .filter(row -> updated.contains((Long) row.get(0))).collect(Collectors.toList());
        current.forEach(rewrite::upsert);
        rewriter.refresh();
        rewriter.commit(rewrite.build());
      }
      // ... and the sink commits on top of it.
      sink.preCommit();
      Workloads.changes(log, KEYS, 100, random);
      sink.poll(BATCH);
    }
    sink.runToEnd(BATCH, 500);
    sink.stop();

    Map<Long, Row> expected = new HashMap<>(log.model());
    expected.putAll(external);
    TableAudit.check("concurrent writer seed " + seed, tables.resolve(Workloads.TOPIC), expected, log.endOffsets(),
        Workloads.CONNECTOR);
  }
}
