package io.mergesink.ingest;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.BadRecordException;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.GatedStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine end to end on real Delta tables, read back with Delta Kernel: positions recovered from
 * the tables, replays skipped, a partition feeding two tables, zombies fenced, bad records.
 */
class IngestEngineTest {
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final String APP_ID = "sink:" + ChangeRecords.TOPIC + ":0";

  @TempDir Path dir;
  private final Map<String, Map<Long, Row>> model = new HashMap<>();
  private final AtomicInteger fenced = new AtomicInteger();

  @AfterEach
  void openTheGate() {
    GatedStorage.gate(GatedStorage.Gate.OPEN);
  }

  @Test
  void anEngineStartedAgainResumesAfterWhatItsTablesHoldAndSkipsTheReplay() throws Exception {
    String root = dir.toString();
    try (IngestEngine first = engine(root)) {
      assertThat(first.open(List.of(P0))).isEmpty();
      upserts(first, "customers", 0, 9);
      assertThat(first.flush()).isEqualTo(FlushOutcome.COMPLETE);
    } // gone without closing its partitions, as after a crash

    try (IngestEngine second = engine(root)) {
      assertThat(second.open(List.of(P0))).containsExactly(Map.entry(P0, 10L));
      second.seeksApplied();
      for (long offset = 5; offset <= 14; offset++) {
        second.accept(upsert("customers", offset, offset < 10 ? "replayed" : "v" + offset));
      }
      second.flush();

      assertThat(second.committedOffsets()).containsExactly(Map.entry(P0, 15L));
    }
    assertTable(root, "customers", 14);
  }

  @Test
  void aNewPartitionFeedingTwoTablesLandsEveryChangeOfItsFirstFlushBesideTheAnchors() throws Exception {
    String root = dir.toString();
    try (IngestEngine engine = engine(root)) {
      engine.open(List.of(P0));
      alternate(engine, 0, 3);
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 4L));
    }
    assertTable(root, "a", 3);
    assertTable(root, "b", 3);
  }

  @Test
  void aPartitionFeedingTwoTablesResumesFromTheLowerOneAndNeitherMovesBack() throws Exception {
    String root = GatedStorage.root(dir);
    try (IngestEngine first = engine(root)) {
      first.open(List.of(P0));
      alternate(first, 0, 9);
      first.flush();
      GatedStorage.gate((path, content) -> {
        if (path.contains("/b/_delta_log/")) {
          throw new IOException("simulated crash before table b's commit");
        }
      });
      Map<Long, Row> bBeforeTheCrash = new HashMap<>(model.get("b"));
      alternate(first, 10, 19);
      assertThat(first.flush().failure()).isPresent();
      model.put("b", bBeforeTheCrash);
    }
    GatedStorage.gate(GatedStorage.Gate.OPEN);
    assertThat(KernelTables.txnVersion(dir.resolve("a").toString(), APP_ID)).contains(19L);
    assertThat(KernelTables.txnVersion(dir.resolve("b").toString(), APP_ID)).contains(9L);

    try (IngestEngine second = engine(root)) {
      assertThat(second.open(List.of(P0))).containsExactly(Map.entry(P0, 10L));
      second.seeksApplied();
      alternate(second, 10, 14);
      assertThat(second.flush()).as("table a is ahead and takes no txn yet").isEqualTo(FlushOutcome.COMPLETE);
      assertThat(KernelTables.txnVersion(dir.resolve("b").toString(), APP_ID)).contains(14L);
      alternate(second, 15, 24);
      assertThat(second.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }
    assertTable(dir.toString(), "a", 24);
    assertTable(dir.toString(), "b", 24);
  }

  @Test
  void aZombieIsFencedLosesItsChangesAndIsSentBackToTheNewOwnersPosition() throws Exception {
    String root = dir.toString();
    try (IngestEngine zombie = engine(root); IngestEngine owner = engine(root)) {
      zombie.open(List.of(P0));
      upserts(zombie, "customers", 0, 4);
      zombie.flush();

      assertThat(owner.open(List.of(P0))).containsExactly(Map.entry(P0, 5L));
      owner.seeksApplied();
      upserts(owner, "customers", 5, 9);
      owner.flush();

      for (long offset = 5; offset <= 7; offset++) {
        zombie.accept(ChangeRecords.upsert(0, offset, "customers", offset % 4, "zombie"));
      }
      FlushOutcome outcome = zombie.flush();

      assertThat(outcome.seeks()).containsExactly(Map.entry(P0, 10L));
      assertThat(outcome.failure()).isEmpty();
      assertThat(fenced).hasValue(1);
      zombie.accept(ChangeRecords.upsert(0, 8, "customers", 1, "zombie"));
      assertThat(zombie.bufferedChanges()).as("records polled before the seek are ignored").isZero();
    }
    assertTable(root, "customers", 9);
  }

  @Test
  void aBadRecordChangesNothingAndItsPositionMovesOnlyWhenItIsSetAside() throws Exception {
    String root = dir.toString();
    try (IngestEngine engine = engine(root)) {
      engine.open(List.of(P0));
      upserts(engine, "customers", 0, 0);
      KafkaRecord bad = ChangeRecords.unknownOp(0, 1, "customers", 9);

      assertThatThrownBy(() -> engine.accept(bad)).isInstanceOf(BadRecordException.class)
          .hasMessageContaining("topic pg.changes, partition 0, offset 1").hasMessageContaining("unknown Debezium op 'x'");
      engine.flush();
      assertThat(KernelTables.txnVersion(dir.resolve("customers").toString(), APP_ID)).contains(0L);

      engine.skip(bad);
      engine.flush();
    }
    assertTable(root, "customers", 1);
  }

  @Test
  void aCompactionHeldAtItsCommitHoldsUpNoFlushAndLosesNoChangeOfTheCommitsThatRacedIt() throws Exception {
    String root = GatedStorage.root(dir);
    Thread testThread = Thread.currentThread();
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean heldTooLong = new AtomicBoolean();
    AtomicBoolean onTheFlushThread = new AtomicBoolean();
    GatedStorage.gate((path, content) -> {
      if (new String(content, StandardCharsets.UTF_8).contains("\"" + Compactor.OPERATION + "\"")) {
        onTheFlushThread.compareAndSet(false, Thread.currentThread() == testThread);
        held.countDown();
        try {
          heldTooLong.compareAndSet(false, !release.await(60, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while held", e);
        }
      }
    });
    try (IngestEngine engine = engine(root, true)) {
      engine.open(List.of(P0));
      for (long offset = 0; offset <= 7; offset++) {
        engine.accept(upsertOf("customers", offset, offset));
      }
      engine.flush();
      for (long offset = 8; offset <= 10; offset++) {
        engine.accept(upsertOf("customers", offset, offset - 8)); // 3 of the first file's 8 rows replaced: worth compacting
      }
      engine.flush();
      assertThat(held.await(60, TimeUnit.SECONDS)).as("a compaction started and is held at its commit").isTrue();

      engine.accept(upsertOf("customers", 11, 3)); // a row of the file the compaction rewrites
      engine.accept(upsertOf("customers", 12, 100));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(ChangeRecords.delete(0, 13, "customers", 4));
      model.get("customers").remove(4L);
      engine.accept(upsertOf("customers", 14, 101));
      engine.accept(upsertOf("customers", 15, 102));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(KernelTables.txnVersion(dir.resolve("customers").toString(), APP_ID)).contains(15L);
      assertThat(heldTooLong).as("the flushes landed while the compaction was held").isFalse();
      assertThat(onTheFlushThread).as("the compaction ran on the flushing thread").isFalse();
      release.countDown();
    } // close lets the compaction finish
    try (Stream<Path> log = Files.list(dir.resolve("customers").resolve("_delta_log"))) {
      assertThat(log.filter(path -> path.toString().endsWith(".json")).map(IngestEngineTest::read))
          .as("the compaction committed after the commits it raced").anyMatch(entry -> entry.contains("\"" + Compactor.OPERATION + "\""));
    }
    assertTable(dir.toString(), "customers", 15);
  }

  @Test
  void aPrimaryKeyChangeSplitByAFlushKeepsTheRowsUnchangedToastColumns() throws Exception {
    String root = dir.toString();
    try (IngestEngine engine = engine(root)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, "accounts", 3, "toasted"));
      engine.flush(FlushScope.WHOLE_KEY_CHANGES);
      engine.accept(ChangeRecords.keyChangeDelete(0, 1, "accounts", 3, 1001));
      assertThat(engine.flush(FlushScope.WHOLE_KEY_CHANGES)).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(engine.committedOffsets()).as("the delete waits for its create").containsExactly(Map.entry(P0, 1L));

      engine.accept(ChangeRecords.keyChangeCreate(0, 2, "accounts", 3, 1001));
      engine.flush(FlushScope.WHOLE_KEY_CHANGES);
      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 3L));
    }
    assertThat(KernelTables.readRows(dir.resolve("accounts").toString())).containsExactly(row(1001, "toasted"));
  }

  /**
   * With tables named by topic, Debezium's tombstone of the old key reaches the table between the
   * delete and the create: a flush after it still waits for the create.
   */
  @Test
  void aPrimaryKeyChangeWhoseTombstoneCameBeforeAFlushKeepsTheRowsUnchangedToastColumns() throws Exception {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableNameFormat("${topic}").commitInterval(Duration.ZERO)
        .build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, "accounts", 3, "toasted"));
      engine.accept(ChangeRecords.keyChangeDelete(0, 1, "accounts", 3, 1001));
      engine.accept(ChangeRecords.tombstone(0, 2, 3));
      assertThat(engine.flush(FlushScope.WHOLE_KEY_CHANGES)).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(engine.committedOffsets()).as("the delete and its tombstone wait for the create").isEmpty();

      engine.accept(ChangeRecords.keyChangeCreate(0, 3, "accounts", 3, 1001));
      engine.flush(FlushScope.WHOLE_KEY_CHANGES);
      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 4L));
    }
    assertThat(KernelTables.readRows(dir.resolve(ChangeRecords.TOPIC).toString())).containsExactly(row(1001, "toasted"));
  }

  @Test
  void aPrimaryKeyChangeCutByARebalanceIsReadAgainWholeByTheNextOwner() throws Exception {
    String root = dir.toString();
    try (IngestEngine first = engine(root)) {
      first.open(List.of(P0));
      first.accept(ChangeRecords.upsert(0, 0, "accounts", 3, "toasted"));
      first.flush();
      first.accept(ChangeRecords.keyChangeDelete(0, 1, "accounts", 3, 1001));
      first.close(List.of(P0));
    }
    assertThat(KernelTables.readRows(dir.resolve("accounts").toString())).containsExactly(row(3, "toasted"));

    try (IngestEngine second = engine(root)) {
      assertThat(second.open(List.of(P0))).containsExactly(Map.entry(P0, 1L));
      second.seeksApplied();
      second.accept(ChangeRecords.keyChangeDelete(0, 1, "accounts", 3, 1001));
      second.accept(ChangeRecords.keyChangeCreate(0, 2, "accounts", 3, 1001));
      second.close(List.of(P0));
    }
    assertThat(KernelTables.readRows(dir.resolve("accounts").toString())).containsExactly(row(1001, "toasted"));
  }

  @Test
  void aKeyChangeWhoseCreateWentToAnotherPartitionWaitsOneFlushOnly() throws Exception {
    String root = dir.toString();
    try (IngestEngine engine = engine(root)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, "accounts", 3, "toasted"));
      engine.accept(ChangeRecords.keyChangeDelete(0, 1, "accounts", 3, 1001));
      engine.flush(FlushScope.WHOLE_KEY_CHANGES);
      assertThat(engine.committedOffsets()).isEmpty();

      engine.flush(FlushScope.WHOLE_KEY_CHANGES);
      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 2L));
    }
    assertThat(KernelTables.readRows(dir.resolve("accounts").toString())).isEmpty();
  }

  private static String read(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private IngestEngine engine(String root) {
    return engine(root, false);
  }

  private IngestEngine engine(String root, boolean compaction) {
    IngestOptions options = IngestOptions.builder(root, "sink").tableNameFormat("${source.table}").commitInterval(Duration.ZERO)
        .compaction(compaction, 0.25, 2).build();
    return new IngestEngine(options, new IngestMetrics() {
      @Override
      public void fenced() {
        fenced.incrementAndGet();
      }
    });
  }

  private KafkaRecord upsertOf(String table, long offset, long id) {
    model.computeIfAbsent(table, t -> new HashMap<>()).put(id, row(id, "v" + offset));
    return ChangeRecords.upsert(0, offset, table, id, "v" + offset);
  }

  private KafkaRecord upsert(String table, long offset, String name) {
    long id = offset % 4;
    model.computeIfAbsent(table, t -> new HashMap<>()).put(id, row(id, name));
    return ChangeRecords.upsert(0, offset, table, id, name);
  }

  /** Upserts of offsets {@code from} to {@code to} into {@code table}, keys offset % 4. */
  private void upserts(IngestEngine engine, String table, long from, long to) {
    for (long offset = from; offset <= to; offset++) {
      engine.accept(upsert(table, offset, "v" + offset));
    }
  }

  /** Offsets {@code from} to {@code to}: even ones change table a, odd ones table b. */
  private void alternate(IngestEngine engine, long from, long to) {
    for (long offset = from; offset <= to; offset++) {
      engine.accept(upsert(offset % 2 == 0 ? "a" : "b", offset, "v" + offset));
    }
  }

  private void assertTable(String root, String table, long txnVersion) {
    String path = Path.of(root).resolve(table).toString();
    assertThat(KernelTables.readRows(path)).containsExactlyInAnyOrderElementsOf(model.get(table).values());
    assertThat(KernelTables.txnVersion(path, APP_ID)).contains(txnVersion);
  }
}
