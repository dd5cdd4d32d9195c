package io.mergesink.ingest;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.GatedStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipelined flush ({@code flush.pipelined}) on real Delta tables read back with Delta Kernel:
 * the engine reads on while a commit is held in flight at its log publish, and that commit lands,
 * fails, meets a revocation or a takeover by another task. Every change lands once, the newer change
 * of a key wins, and positions move only with commits that landed.
 */
class PipelinedFlushTest {
  private static final int TIMEOUT_SECONDS = 60;
  private static final String TABLE = "items";
  private static final KafkaPartition PARTITION = new KafkaPartition(ChangeRecords.TOPIC, 0);

  @TempDir Path dir;
  /** Per key, the row its last change in the log makes. */
  private final Map<Long, Row> model = new TreeMap<>();
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void openTheGate() {
    release.countDown();
    GatedStorage.gate(GatedStorage.Gate.OPEN);
  }

  @Test
  void recordsReadWhileACommitIsInFlightLandWithTheNextFlushAndTheNewerChangeOfAKeyWins() throws Exception {
    Threads metrics = new Threads();
    try (IngestEngine engine = engine(metrics, 1_000)) {
      flushHeldInFlight(engine, 10, false);

      deliver(engine, 10, 16, "second");
      assertThat(engine.parkedRecords()).as("read while the commit is in flight").isEqualTo(6);
      assertThat(engine.committedOffsets()).as("nothing landed yet").isEmpty();
      assertThat(engine.flushRunning()).isTrue();
      release.countDown();

      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(engine.flushRunning()).isFalse();
      assertThat(engine.committedOffsets()).containsEntry(PARTITION, 16L);
      assertThat(engine.parkedRecords()).isZero();
    }
    assertThat(KernelTables.readRows(dir.resolve(TABLE).toString())).containsExactlyInAnyOrderElementsOf(model.values());
    assertThat(metrics.threads).as("commits are counted where they are applied: on the engine's thread")
        .containsOnly(Thread.currentThread());
  }

  @Test
  void aCommitThatFailsInFlightIsRetriedBehindTheChangesReadMeanwhile() throws Exception {
    try (IngestEngine engine = engine(IngestMetrics.NONE, 1_000)) {
      flushHeldInFlight(engine, 10, true);

      deliver(engine, 10, 13, "second"); // keys 0, 1, 2 change again; 3 and 4 only in the failing commit
      release.countDown();
      engine.awaitFlush();
      assertThat(engine.committedOffsets()).as("the failed commit moved no position").isEmpty();
      assertThat(engine.flushInBackground(FlushScope.WHOLE_KEY_CHANGES).failure()).as("the failure, reported once").isPresent();

      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(engine.committedOffsets()).containsEntry(PARTITION, 13L);
    }
    assertThat(KernelTables.readRows(dir.resolve(TABLE).toString())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void aTaskWhoseRecordsReachTheBufferLimitsWhileACommitIsInFlightWaitsForIt() throws Exception {
    AtomicBoolean released = new AtomicBoolean();
    ExecutorService task = Executors.newSingleThreadExecutor();
    try (IngestEngine engine = engine(IngestMetrics.NONE, 5)) {
      CountDownLatch limitReached = new CountDownLatch(1);
      Future<Boolean> reading = task.submit(() -> {
        flushHeldInFlight(engine, 5, false);
        deliver(engine, 5, 10, "second");
        limitReached.countDown();
        deliver(engine, 10, 11, "third"); // the sixth record held: waits for the commit in flight
        boolean waited = released.get();
        assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
        assertThat(engine.committedOffsets()).containsEntry(PARTITION, 11L);
        return waited;
      });
      assertThat(limitReached.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
      released.set(true);
      release.countDown();
      assertThat(reading.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the task went on only after the commit was let go").isTrue();
    } finally {
      task.shutdownNow();
    }
    assertThat(KernelTables.readRows(dir.resolve(TABLE).toString())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void aPartitionRevokedWhileItsCommitIsInFlightIsReleasedOnlyAfterItLandedWithWhatWasReadMeanwhile() throws Exception {
    ExecutorService releaser = Executors.newSingleThreadExecutor();
    try (IngestEngine engine = engine(IngestMetrics.NONE, 1_000); IngestEngine next = engine(IngestMetrics.NONE, 1_000)) {
      flushHeldInFlight(engine, 10, false);
      deliver(engine, 10, 14, "second");
      Future<?> letGo = releaser.submit(release::countDown);

      assertThat(engine.close(List.of(PARTITION))).isEqualTo(FlushOutcome.COMPLETE);
      letGo.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertThat(engine.holds(PARTITION)).isFalse();
      assertThat(next.open(List.of(PARTITION))).as("the next owner resumes after everything read").containsEntry(PARTITION, 14L);
    } finally {
      releaser.shutdownNow();
    }
    assertThat(KernelTables.readRows(dir.resolve(TABLE).toString())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void aZombieFencedWhileItsCommitIsInFlightDropsWhatItReadAndSeeksToWhereTheNewOwnerCommitted() throws Exception {
    try (IngestEngine zombie = engine(IngestMetrics.NONE, 1_000); IngestEngine owner = engine(IngestMetrics.NONE, 1_000)) {
      zombie.open(List.of(PARTITION));
      deliver(zombie, 0, 5, "first");
      assertThat(zombie.flush()).isEqualTo(FlushOutcome.COMPLETE);
      deliver(zombie, 5, 10, "zombie");
      holdTheNextCommit(false);
      zombie.flushInBackground(FlushScope.WHOLE_KEY_CHANGES);
      awaitReached();

      // another task takes the partition over, reads it from the tables' position, and commits first
      assertThat(owner.open(List.of(PARTITION))).containsEntry(PARTITION, 5L);
      owner.seeksApplied();
      deliver(owner, 5, 12, "owner");
      assertThat(owner.flush()).isEqualTo(FlushOutcome.COMPLETE);
      deliver(zombie, 10, 12, "zombie"); // read by the zombie meanwhile: must not land
      release.countDown();

      FlushOutcome outcome = zombie.flushInBackground(FlushScope.WHOLE_KEY_CHANGES);
      assertThat(outcome.seeks()).as("fenced: back to where the owner committed").containsEntry(PARTITION, 12L);
      assertThat(zombie.parkedRecords()).isZero();
      assertThat(zombie.committedOffsets()).containsEntry(PARTITION, 12L);
      assertThat(zombie.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }
    assertThat(KernelTables.readRows(dir.resolve(TABLE).toString())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void aCompactionRunsBetweenTwoFlushesOfItsEngineAndTheFlushAfterItReadsItWithoutAConflict() throws Exception {
    try (IngestEngine engine = engine(IngestMetrics.NONE, 1_000, true)) {
      engine.open(List.of(PARTITION));
      deliver(engine, 0, 5, "first");
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      AtomicBoolean once = new AtomicBoolean(true);
      GatedStorage.gate((path, content) -> {
        if (new String(content, StandardCharsets.UTF_8).contains("\"OPTIMIZE\"") && once.compareAndSet(true, false)) {
          reached.countDown();
          awaitRelease();
        }
      });
      deliver(engine, 5, 8, "second");
      assertThat(engine.flush()).as("two files, three of the first's five rows deleted: a compaction is due")
          .isEqualTo(FlushOutcome.COMPLETE);
      awaitReached();

      deliver(engine, 8, 13, "third");
      assertThat(engine.flushInBackground(FlushScope.WHOLE_KEY_CHANGES)).isEqualTo(FlushOutcome.COMPLETE);
      release.countDown();
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(engine.committedOffsets()).containsEntry(PARTITION, 13L);
    }
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve(TABLE).toString());
    long latest = table.snapshot().version();
    assertThat(operation(table, latest - 1)).as("the compaction, held at its publish, before the flush launched after it")
        .isEqualTo("OPTIMIZE");
    Map<String, Object> flushAfter = table.commitInfo(latest).orElseThrow().values();
    assertThat(flushAfter.get("operation")).isNotEqualTo("OPTIMIZE");
    assertThat(((Number) flushAfter.get("readVersion")).longValue()).as("the flush after it, planned on it").isEqualTo(latest - 1);
    assertThat(KernelTables.readRows(dir.resolve(TABLE).toString())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  private static Object operation(DeltaTable table, long version) throws IOException {
    return table.commitInfo(version).orElseThrow().values().get("operation");
  }

  /** Accepts upserts of keys {@code offset % 5} at {@code from} until {@code to}, named {@code what@offset}; updates the model. */
  private void deliver(IngestEngine engine, long from, long to, String what) {
    for (long offset = from; offset < to; offset++) {
      long id = offset % 5;
      String name = what + "@" + offset;
      engine.accept(ChangeRecords.upsert(0, offset, TABLE, id, name));
      if (!what.equals("zombie")) {
        model.put(id, row(id, name));
      }
    }
  }

  /**
   * Opens the partition, delivers its first {@code records} and flushes them in the background, the
   * commit held at its log publish (failing when let go if {@code fail}); returns once it is held.
   */
  private void flushHeldInFlight(IngestEngine engine, long records, boolean fail) throws InterruptedException {
    engine.open(List.of(PARTITION));
    deliver(engine, 0, records, "first");
    holdTheNextCommit(fail);
    assertThat(engine.flushInBackground(FlushScope.WHOLE_KEY_CHANGES)).as("no flush landed before").isEqualTo(FlushOutcome.COMPLETE);
    awaitReached();
  }

  /** Holds the next publish to the table's log until {@link #release}; then it happens, or fails when {@code fail}. */
  private void holdTheNextCommit(boolean fail) {
    AtomicBoolean once = new AtomicBoolean(true);
    GatedStorage.gate((path, content) -> {
      if (path.contains("/" + TABLE + "/_delta_log/") && once.compareAndSet(true, false)) {
        reached.countDown();
        awaitRelease();
        if (fail) {
          throw new IOException("simulated storage failure of table " + TABLE);
        }
      }
    });
  }

  private void awaitRelease() {
    try {
      release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void awaitReached() throws InterruptedException {
    assertThat(reached.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the commit reached its log publish").isTrue();
  }

  private IngestEngine engine(IngestMetrics metrics, long bufferMaxRecords) {
    return engine(metrics, bufferMaxRecords, false);
  }

  private IngestEngine engine(IngestMetrics metrics, long bufferMaxRecords, boolean compaction) {
    IngestOptions options = IngestOptions.builder(GatedStorage.root(dir), "sink").tableNameFormat("${source.table}")
        .commitInterval(Duration.ofHours(1)).bufferLimits(bufferMaxRecords, 64L << 20).pipelinedFlush(true)
        .compaction(compaction, 0.25, 2).build();
    return new IngestEngine(options, metrics);
  }

  /** The threads an engine counted its commits on. */
  private static final class Threads implements IngestMetrics {
    final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    @Override
    public void committed(long latencyMs, long rowsWritten, RequestCounts requests) {
      threads.add(Thread.currentThread());
    }
  }
}
