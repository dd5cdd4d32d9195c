package io.mergesink.connect.reliability;

import io.mergesink.ingest.testing.Expected.Position;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Other writers commit to the sink's table between the sink's planning and its commit
 * (docs/design.md, "Concurrency"): an unrelated append of rows of their own; in upsert tables a
 * copy-on-write rewrite of the very files holding keys the sink is about to update (same rows, new
 * files, the old ones removed); and an {@code OPTIMIZE} of the whole table, as Spark or the CLI
 * would run it. The sink re-plans; the table holds what the source says plus the other writer's
 * rows. On local disk, S3 and Azure (the other writer then uses the same storage).
 */
class ConcurrentWriterIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 800;
  private static final int BATCH = 40;
  private static final int ROUNDS = 9;
  private static final String EXTERNAL_TOPIC = "external";

  @TempDir Path tables;

  static Stream<Cell> cells() {
    // plain cells only: the other writer's rows carry none of a CDC mode's columns (sequence,
    // soft-delete marks, versions), so the modes' models do not apply to them; Delta cells only: the
    // other writer is merge-core's Delta writer
    return Matrix.cellsOnBothStorages(Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.FORCED),
        Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.OFF).onS3(), cell -> cell.isPlain() && cell.isDelta());
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("cells")
  void sinkReplansAroundOtherWriters(Cell cell) throws IOException, FencedException {
    long seed = Workloads.seed("concurrent writer [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS);
    Map<TopicPartition, Long> group = new HashMap<>();
    TaskDriver sink = new TaskDriver("task-0", Workloads.config(cell, tables, 100_000), log, group);
    sink.open(log.topicPartitions());
    for (long id = 0; id < KEYS; id++) {
      log.upsert(id);
    }
    sink.runToEnd(1_000, 10);

    String root = Workloads.table(cell, tables);
    try (Storage storage = Workloads.storage(cell, tables)) {
      otherWritersAndTheSink(cell, seed, random, log, sink, storage, root);
    }
  }

  /** Rounds of other writers' commits between the sink's polls and its commits, then the audit; {@code storage} holds {@code root}. */
  private static void otherWritersAndTheSink(Cell cell, long seed, Random random, RecordLog log, TaskDriver sink, Storage storage,
      String root) throws IOException, FencedException {
    DeltaTable table = DeltaTable.forPath(storage, root);
    TableWriter appender = cell.newWriter(table, List.of(CustomerTable.ID));
    TableWriter rewriter = table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE), List.of(CustomerTable.ID));
    Compactor optimize = new Compactor(storage, CompactionOptions.defaults().withMinSmallFiles(2)
        .withDeletedRatio(0.0));
    Map<Long, Map<String, Object>> externalRows = new HashMap<>();
    Map<Position, Map<String, Object>> externalEvents = new HashMap<>();
    long nextExternalId = -1;

    for (int round = 0; round < ROUNDS; round++) {
      // The sink polls a burst of updates (buffered, not committed yet) ...
      Set<Long> updated = new HashSet<>();
      for (int i = 0; i < 150; i++) {
        long id = Workloads.skewed(KEYS, random);
        log.upsert(id);
        updated.add(id);
      }
      sink.poll(BATCH * 10);
      // ... another writer commits ...
      StructType schema = table.snapshot().schema();
      if (round % 3 == 0) {
        // ... an append of rows of its own,
        ChangeSet.Builder append = ChangeSet.builder();
        for (int i = 0; i < 25; i++) {
          long id = nextExternalId--;
          Map<String, Object> columns = CustomerTable.standard().columns(id, 1);
          if (cell.isAppend()) {
            Position position = new Position(EXTERNAL_TOPIC, 0, -id);
            columns.putAll(Map.of(Expected.OP, "c", Expected.TIMESTAMP, 0L, Expected.TOPIC, position.topic(),
                Expected.PARTITION, position.partition(), Expected.OFFSET, position.offset()));
            externalEvents.put(position, columns);
          } else {
            externalRows.put(id, columns);
          }
          append.upsert(rowOf(schema, columns));
        }
        appender.refresh();
        appender.commit(append.build());
      } else if (round % 3 == 1 && !cell.isAppend()) {
        // ... a rewrite of the files holding keys the sink will update,
        ChangeSet.Builder rewrite = ChangeSet.builder();
        TableAudit.readRows(root).stream().filter(row -> updated.contains((Long) row.get(CustomerTable.ID)))
            .forEach(row -> rewrite.upsert(rowOf(schema, row)));
        rewriter.refresh();
        rewriter.commit(rewrite.build());
      } else {
        // ... or an OPTIMIZE of the whole table.
        optimize.compact(table.snapshot());
      }
      // ... and the sink commits on top of it.
      sink.preCommit();
      Workloads.changes(log, KEYS, 100, random);
      sink.poll(BATCH);
    }
    sink.runToEnd(BATCH, 500);
    sink.stop();

    String scenario = "concurrent writer seed " + seed + " [" + cell + "]";
    if (cell.isAppend()) {
      TableAudit.check(scenario, root, log.events().plus(externalEvents), log.endOffsets(), Workloads.CONNECTOR);
    } else {
      TableAudit.check(scenario, root, log.upserts().plus(externalRows), log.endOffsets(), Workloads.CONNECTOR);
    }
  }

  private static Row rowOf(StructType schema, Map<String, Object> columns) {
    return Row.of(schema.fieldNames().stream().map(columns::get).toArray());
  }
}
