package io.mergesink.core.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.CommitHook;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction racing a sink's commits never loses a delete or an upsert (docs/design.md, "Concurrency"). */
class CompactionRaceTest {
  private static final String APP_ID = "app:orders:0";
  private static final CompactionOptions EAGER = CompactionOptions.defaults().withMinSmallFiles(2);

  @TempDir Path dir;

  @Test
  void sinkDeleteThatWinsTheRaceMakesTheCompactionPlanAgain() throws Exception {
    DeltaTable table = Tables.create(dir);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    Map<Long, Row> model = new HashMap<>();
    for (int round = 1; round <= 5; round++) {
      upsertRange(writer, model, round * 100L, round);
    }
    AtomicBoolean raced = new AtomicBoolean();
    CommitHook sinkFirst = (root, version) -> {
      if (raced.compareAndSet(false, true)) {
        try {
          writer.commit(ChangeSet.builder().delete(Row.of(100L)).upsert(Tables.row(201L, 99)).txn(APP_ID, TxnChange.from(5, 6)).build());
        } catch (FencedException e) {
          throw new IOException(e);
        }
        model.remove(100L);
        model.put(201L, Tables.row(201L, 99));
      }
    };

    CompactionResult result = new Compactor(Tables.STORAGE, EAGER, sinkFirst).compact(table.snapshot());

    assertThat(result).isInstanceOf(CompactionResult.Compacted.class);
    assertThat(((CompactionResult.Compacted) result).replans()).isEqualTo(1);
    assertThat(table.snapshot().files()).hasSize(1);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
    assertThat(KernelTables.txnVersion(table.root(), APP_ID)).contains(6L);
  }

  @Test
  void compactionThatWinsTheRaceMakesTheSinkPlanAgain() throws Exception {
    DeltaTable table = Tables.create(dir);
    Map<Long, Row> model = new HashMap<>();
    AtomicBoolean compactNow = new AtomicBoolean();
    CommitHook compactionFirst = (root, version) -> {
      if (compactNow.compareAndSet(true, false)) {
        new Compactor(Tables.STORAGE, EAGER).compact(table.snapshot());
      }
    };
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCommitHook(compactionFirst));
    for (int round = 1; round <= 5; round++) {
      upsertRange(writer, model, round * 100L, round);
    }
    compactNow.set(true);
    CommitResult result = writer.commit(ChangeSet.builder().delete(Row.of(100L)).upsert(Tables.row(301L, 99)).txn(APP_ID, TxnChange.from(5, 6))
        .build());
    model.remove(100L);
    model.put(301L, Tables.row(301L, 99));

    assertThat(result.replans()).isEqualTo(1);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
    writer.commit(ChangeSet.builder().delete(Row.of(200L)).upsert(Tables.row(401L, 100)).txn(APP_ID, TxnChange.from(6, 7)).build());
    model.remove(200L);
    model.put(401L, Tables.row(401L, 100));
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void compactorThreadRacingTheSinkLosesNoDeleteAndNoUpsert() throws Exception {
    DeltaTable table = Tables.create(dir);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    Map<Long, Row> model = new HashMap<>();
    AtomicBoolean sinkDone = new AtomicBoolean();
    AtomicInteger compactions = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> sink = pool.submit(() -> {
        Random random = new Random(42);
        try {
          for (int round = 1; round <= 150; round++) {
            Tables.randomCommit(writer, model, random, 400, 20, APP_ID, round);
          }
        } finally {
          sinkDone.set(true);
        }
        return null;
      });
      Future<?> compactor = pool.submit(() -> {
        Compactor compactorOf = new Compactor(Tables.STORAGE, EAGER);
        while (!sinkDone.get() || compactions.get() == 0) {
          if (compactorOf.compact(table.snapshot()) instanceof CompactionResult.Compacted) {
            compactions.incrementAndGet();
          }
        }
        return null;
      });
      sink.get(5, TimeUnit.MINUTES);
      compactor.get(5, TimeUnit.MINUTES);
    } finally {
      pool.shutdownNow();
    }
    assertThat(compactions.get()).isPositive();
    List<Row> rows = KernelTables.readRows(table.root());
    assertThat(rows).containsExactlyInAnyOrderElementsOf(model.values());
    assertThat(KernelTables.txnVersion(table.root(), APP_ID)).contains(150L);
  }

  private static void upsertRange(TableWriter writer, Map<Long, Row> model, long from, int round) throws Exception {
    ChangeSet.Builder changes = ChangeSet.builder();
    for (long id = from; id < from + 10; id++) {
      changes.upsert(Tables.row(id, round));
      model.put(id, Tables.row(id, round));
    }
    writer.commit(changes.txn(APP_ID, writer.snapshot().txnVersion(APP_ID), round).build());
  }
}
