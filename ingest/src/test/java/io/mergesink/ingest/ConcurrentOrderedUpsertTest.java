package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.GatedStorage;
import io.mergesink.ingest.testing.HeldCommit;
import io.mergesink.ingest.testing.Landing;
import io.mergesink.ingest.testing.RacingFlushes;
import io.mergesink.ingest.testing.SequencedRecords;
import io.mergesink.ingest.testing.SinkTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Two tasks (two engines, one partition each: a re-partitioned topic) write one upsert table ordered
 * by {@code source.lsn} with {@code lookup.scope=table}, changing the same keys. A change set is
 * decided from the keys it looked up and the sequences it read; when the other task's commit
 * changed one of them first, it is decided again on the table as it is then (docs/design.md,
 * "Ordering and soft deletes"). Read back with Delta Kernel (or Iceberg's generic reader): each
 * key holds its newest change by sequence, whichever task committed last.
 */
class ConcurrentOrderedUpsertTest {
  private static final String TABLE = "items";
  private static final String SEQUENCE = UpsertOrder.parse("source.lsn").column();

  @org.junit.jupiter.api.io.TempDir Path dir;
  /** The format of the table the test wrote, whose reader reads it back. */
  private SinkTables format = SinkTables.DELTA;

  @AfterEach
  void openTheGate() {
    GatedStorage.gate(GatedStorage.Gate.OPEN);
  }

  /**
   * Task A decides its older changes against the rows as they were, and is held at its commit
   * while task B commits newer changes of the same keys (an update, and a re-insert of a key A
   * deletes): A's commit must keep B's rows, and count each of its skipped changes once.
   */
  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS, HARD", "COPY_ON_WRITE, HARD", "DELETION_VECTORS, SOFT", "COPY_ON_WRITE, SOFT"})
  void anOlderChangeHeldWhileAnotherTaskCommitsANewerOneDoesNotOverwriteIt(MergeStrategy strategy, DeleteMode deletes) throws Exception {
    String root = GatedStorage.root(dir);
    List<KafkaRecord> stream = new ArrayList<>();
    AtomicLong skippedByA = new AtomicLong();
    try (IngestEngine a = engine(root, strategy, deletes, 0, skippedByA); IngestEngine b = engine(root, strategy, deletes, 1, new AtomicLong())) {
      long offset = 0;
      offset = deliver(a, stream, upsert(0, offset, 1, "a1", 10));
      offset = deliver(a, stream, upsert(0, offset, 2, "a2", 11));
      offset = deliver(a, stream, upsert(0, offset, 3, "a3", 40));
      assertThat(a.flush()).isEqualTo(FlushOutcome.COMPLETE);

      offset = deliver(a, stream, upsert(0, offset, 1, "a1 older than b's", 20));
      offset = deliver(a, stream, SequencedRecords.delete(0, offset, 2, 21, 21));
      offset = deliver(a, stream, upsert(0, offset, 3, "a3 stale from the start", 25));
      offset = deliver(b, stream, upsert(1, offset, 1, "b1 newer", 30));
      deliver(b, stream, upsert(1, offset, 2, "b2 re-inserted", 31));

      HeldCommit.flushWhileHeld(a, TABLE, b);
    }
    assertThat(table()).as("B's newer rows stay").isEqualTo(newestBySequence(stream, deletes));
    assertThat(table()).containsEntry(1L, "b1 newer@30").containsEntry(2L, "b2 re-inserted@31").containsEntry(3L, "a3@40");
    assertThat(skippedByA.get()).as("A's three stale changes, each counted once though decided twice").isEqualTo(3);
  }

  /**
   * Many rounds: each task buffers changes of shared keys whose sequences interleave with the
   * other's, and both flush at once on two threads. Hard deletes are left out: which keys a task
   * hard-deleted it alone remembers (docs/design.md, "Ordering and soft deletes"), so another
   * task's older change of such a key is inserted.
   */
  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS, HARD", "COPY_ON_WRITE, HARD", "DELETION_VECTORS, SOFT", "COPY_ON_WRITE, SOFT", "ICEBERG, HARD",
      "ICEBERG, SOFT"})
  void twoTasksRacingChangesOfTheSameKeysLeaveTheNewestBySequence(Landing landing, DeleteMode deletes) throws Exception {
    String root = dir.toString();
    Random random = new Random(7310554128881L + landing.strategy.ordinal() * 2L + deletes.ordinal());
    List<KafkaRecord> stream = new ArrayList<>();
    format = landing.format;
    try (IngestEngine first = engine(root, landing, deletes, 0, new AtomicLong());
        IngestEngine second = engine(root, landing, deletes, 1, new AtomicLong());
        RacingFlushes race = new RacingFlushes(first, second)) {
      IngestEngine[] engines = {first, second};
      long offset = 0;
      long lsn = 0;
      for (long id = 1; id <= 6; id++) {
        offset = deliver(first, stream, upsert(0, offset, id, "first", lsn++));
      }
      assertThat(first.flush()).isEqualTo(FlushOutcome.COMPLETE);
      int rounds = landing.format == SinkTables.ICEBERG ? 10 : 30; // an Iceberg commit costs several Delta ones; each round races
      for (int round = 0; round < rounds; round++) {
        int changes = 2 + random.nextInt(6);
        List<Long> sequences = new ArrayList<>();
        for (int i = 0; i < changes; i++) {
          sequences.add(lsn++);
        }
        Collections.shuffle(sequences, random);
        for (long sequence : sequences) {
          int task = random.nextInt(2);
          long id = 1 + random.nextInt(6);
          KafkaRecord record = deletes == DeleteMode.SOFT && random.nextInt(100) < 20
              ? SequencedRecords.delete(task, offset, id, sequence, sequence)
              : upsert(task, offset, id, "r" + round + "t" + task + "o" + offset, sequence);
          offset = deliver(engines[task], stream, record);
        }
        race.flushAtOnce();
      }
      race.drain();
    }
    assertThat(table()).isEqualTo(newestBySequence(stream, deletes));
  }

  private static KafkaRecord upsert(int partition, long offset, long id, String name, long lsn) {
    return SequencedRecords.upsert(partition, offset, "u", id, name, lsn, lsn, lsn);
  }

  private static long deliver(IngestEngine engine, List<KafkaRecord> stream, KafkaRecord record) {
    engine.accept(record);
    stream.add(record);
    return record.offset() + 1;
  }

  private IngestEngine engine(String root, MergeStrategy strategy, DeleteMode deletes, int partition, AtomicLong skipped) {
    return engine(root, strategy == MergeStrategy.COPY_ON_WRITE ? Landing.COPY_ON_WRITE : Landing.DELETION_VECTORS, deletes, partition,
        skipped);
  }

  private IngestEngine engine(String root, Landing landing, DeleteMode deletes, int partition, AtomicLong skipped) {
    IngestOptions options = landing.apply(IngestOptions.builder(root, "sink")).tableNameFormat("${source.table}")
        .writeMode(WriteMode.UPSERT).commitInterval(Duration.ZERO).lookupScope(LookupScope.TABLE)
        .changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.lsn"), deletes, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX))
        .build();
    IngestEngine engine = new IngestEngine(options, new IngestMetrics() {
      @Override
      public void staleChangesSkipped(long changes) {
        skipped.addAndGet(changes);
      }
    });
    engine.open(List.of(new KafkaPartition(SequencedRecords.TOPIC, partition)));
    engine.seeksApplied();
    return engine;
  }

  /** id → "name@sequence" of each row, "deleted@sequence" of a soft-deleted one; one row per key. */
  private Map<Long, String> table() {
    String path = format.location(dir.toString(), TABLE);
    StructType schema = format.schema(path);
    int deleted = schema.indexOf("__deleted");
    Map<Long, String> rows = new TreeMap<>();
    for (Row row : format.readRows(path)) {
      long id = (Long) row.get(schema.indexOf("id"));
      String state = deleted >= 0 && Boolean.TRUE.equals(row.get(deleted)) ? "deleted" : (String) row.get(schema.indexOf("name"));
      assertThat(rows.put(id, state + "@" + row.get(schema.indexOf(SEQUENCE)))).as("key %d in one row", id).isNull();
    }
    return rows;
  }

  /** The model: per key its change with the newest sequence; a hard delete leaves no row. */
  private static Map<Long, String> newestBySequence(List<KafkaRecord> stream, DeleteMode deletes) {
    Map<Long, Long> newest = new TreeMap<>();
    Map<Long, String> rows = new TreeMap<>();
    for (KafkaRecord record : stream) {
      org.apache.kafka.connect.data.Struct value = (org.apache.kafka.connect.data.Struct) record.value();
      long id = ((org.apache.kafka.connect.data.Struct) record.key()).getInt64("id");
      long lsn = value.getStruct("source").getInt64("lsn");
      if (newest.containsKey(id) && newest.get(id) >= lsn) {
        continue;
      }
      newest.put(id, lsn);
      rows.put(id, ("d".equals(value.getString("op")) ? "deleted" : value.getStruct("after").getString("name")) + "@" + lsn);
    }
    if (deletes == DeleteMode.HARD) {
      rows.values().removeIf(row -> row.startsWith("deleted@"));
    }
    return rows;
  }
}
