package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.decode.LogicalTypes;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.Landing;
import io.mergesink.ingest.testing.SequencedRecords;
import io.mergesink.ingest.testing.SinkTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code upsert.order.by} on real Delta and Iceberg tables, read back with Delta Kernel and Iceberg's
 * generic reader ({@link SinkTables}): a PostgreSQL history (a
 * model) is delivered out of order and twice, as CDC streams are: its keys move to the other
 * partition halfway (the later changes of a key may land before the earlier ones), a re-snapshot
 * taken mid-stream arrives after the stream, and Debezium, restarted from an older LSN, sends a
 * stretch of old changes again at new offsets. The table must end as PostgreSQL did, with both
 * landings; soft deletes keep deleted rows marked; the same stream in Kafka order (the default)
 * does not.
 */
class OrderedIngestTest {
  private static final String TABLE = SequencedRecords.TOPIC;
  private static final int STEPS = 300;
  private static final int KEYS = 30;
  private static final int MOVE_AT = 150;
  private static final int SNAPSHOT_AT = 200;
  private static final int REPLAY_FROM = 100;
  private static final int REPLAY_TO = 180;

  @TempDir Path dir;
  private final AtomicLong skipped = new AtomicLong();
  /** The format of the table the test wrote, whose reader reads it back. */
  private SinkTables format = SinkTables.DELTA;

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (Landing landing : Landing.values()) {
      for (String order : List.of("source.lsn", "source.ts_ms")) {
        // an Iceberg commit costs a few times a Delta one: one seed there
        for (long seed : landing.format == SinkTables.ICEBERG ? List.of(1L) : List.of(1L, 2L, 3L)) {
          cases.add(Arguments.of(landing, order, seed));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, {1}, seed {2}")
  @MethodSource("cases")
  void aStreamOutOfOrderAndTwiceEndsWithTheNewestStateOfEveryKey(Landing landing, String order, long seed) {
    History history = History.random(seed);
    deliver(history, options(landing, order, DeleteMode.HARD), seed, false);

    assertThat(liveRows()).isEqualTo(history.finalState());
    assertThat(skipped.get()).as("stale changes skipped").isPositive();
  }

  @ParameterizedTest(name = "{0}, {1}, seed {2}")
  @MethodSource("cases")
  void withSoftDeletesTheDeletedRowsStayMarkedAndOrderingHoldsAcrossARestart(Landing landing, String order, long seed) {
    History history = History.random(seed);
    deliver(history, options(landing, order, DeleteMode.SOFT), seed, true);

    assertThat(liveRows()).isEqualTo(history.finalState());
    Map<Long, Boolean> deleted = column("__deleted");
    for (long id : history.everInserted()) {
      assertThat(deleted.get(id)).as("__deleted of key %d", id).isEqualTo(!history.finalState().containsKey(id));
    }
    Map<Long, Object> deletedAt = column("__deleted_at");
    for (long id : history.finalState().keySet()) {
      assertThat(deletedAt.get(id)).as("__deleted_at of live key %d", id).isNull();
    }
    for (long id : history.everInserted()) {
      if (!history.finalState().containsKey(id)) {
        assertThat(deletedAt.get(id)).as("__deleted_at of deleted key %d: its delete's source time", id)
            .isEqualTo(history.lastDeleteTsMs(id) * 1000);
      }
    }
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("strategiesAndSeeds")
  void aTablePartitionedByAColumnTheChangesSetEndsTheSameWithRowsMovingBetweenPartitions(MergeStrategy strategy, long seed) {
    History history = History.random(seed);
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").commitInterval(Duration.ZERO).mergeStrategy(strategy)
        .compaction(false, 0.25, 2).partitionFields(PartitionField.parse(List.of("version")))
        .changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.SOFT, 10))
        .build();
    deliver(history, options, seed, false);

    assertThat(KernelTables.partitionColumns(dir.resolve(TABLE).toString())).containsExactly("version");
    assertThat(liveRows()).isEqualTo(history.finalState());
    Map<Long, Boolean> deleted = column("__deleted");
    for (long id : history.everInserted()) {
      assertThat(deleted.get(id)).as("__deleted of key %d", id).isEqualTo(!history.finalState().containsKey(id));
    }
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("landingsAndSeeds")
  void inKafkaOrderTheSameStreamEndsWrong(Landing landing, long seed) {
    History history = History.random(seed);
    deliver(history, options(landing, "none", DeleteMode.HARD), seed, false);

    assertThat(liveRows()).as("the test's stream does reorder changes").isNotEqualTo(history.finalState());
  }

  static Stream<Arguments> landingsAndSeeds() {
    return cases().filter(arguments -> arguments.get()[1].equals("source.lsn")).map(arguments -> Arguments.of(arguments.get()[0],
        arguments.get()[2]));
  }

  /** Delta's strategies: Iceberg tables are created unpartitioned. */
  static Stream<Arguments> strategiesAndSeeds() {
    return landingsAndSeeds().filter(arguments -> ((Landing) arguments.get()[0]).format == SinkTables.DELTA)
        .map(arguments -> Arguments.of(((Landing) arguments.get()[0]).strategy, arguments.get()[1]));
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("landingsAndSeeds")
  void orderedByAColumnOfTheTableTheNewestVersionOfEveryKeyWins(Landing landing, long seed) {
    // deletes carry no version (their row is gone) and apply in Kafka order: this stream has none
    History history = History.random(seed, 0);
    deliver(history, options(landing, "version", DeleteMode.HARD), seed, false);

    assertThat(liveRows()).isEqualTo(history.finalState());
    assertThat(skipped.get()).as("stale changes skipped").isPositive();
    assertThat(format.schema(format.location(dir.toString(), TABLE)).fieldNames()).containsExactly("id", "name", "version");
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Landing.class)
  void anUnchangedToastColumnKeepsItsValueAndAStaleChangeDoesNotReplaceIt(Landing landing) {
    IngestEngine engine = open(options(landing, "source.lsn", DeleteMode.SOFT));
    try {
      engine.accept(SequencedRecords.upsert(0, 0, "c", 1, "long text", 1, 100, 1));
      engine.accept(SequencedRecords.upsert(0, 1, "c", 2, "other text", 1, 110, 1));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(SequencedRecords.upsert(0, 2, "u", 1, LogicalTypes.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER, 2, 200, 2));
      engine.accept(SequencedRecords.upsert(1, 0, "r", 2, "snapshot text", 1, 105, 2));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    } finally {
      engine.close();
    }

    assertThat(liveRows()).containsExactly(Map.entry(1L, "long text"), Map.entry(2L, "other text"));
    assertThat(column("version")).containsExactly(Map.entry(1L, 2L), Map.entry(2L, 1L));
    assertThat(column(UpsertOrder.LSN_COLUMN)).containsExactly(Map.entry(1L, 200L), Map.entry(2L, 110L));
    assertThat(skipped.get()).isEqualTo(1);
  }

  static Stream<Arguments> softDeleteOrders() {
    List<Arguments> cases = new ArrayList<>();
    for (Landing landing : Landing.values()) {
      for (String order : List.of("none", "source.lsn", "version")) {
        cases.add(Arguments.of(landing, order));
      }
    }
    return cases.stream();
  }

  /**
   * Debezium follows every delete with a tombstone, which carries no source time: the soft-deleted
   * row keeps its delete's source time as {@code __deleted_at} whether the tombstone comes in the
   * same flush or a later one (the reliability matrix found Kafka's time there, without ordering);
   * a tombstone alone (a source that sends deletes as tombstones only) marks a live row at its Kafka
   * time, unless ordered by source position.
   */
  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("softDeleteOrders")
  void aTombstoneAfterADeleteKeepsTheDeletesSourceTime(Landing landing, String order) {
    IngestEngine engine = open(options(landing, order, DeleteMode.SOFT));
    try {
      engine.accept(SequencedRecords.upsert(0, 0, "c", 1, "one", 1, 100, 1_000));
      engine.accept(SequencedRecords.upsert(0, 1, "c", 2, "two", 1, 110, 1_100));
      engine.accept(SequencedRecords.upsert(0, 2, "c", 3, "three", 1, 120, 1_200));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(SequencedRecords.delete(0, 3, 1, 200, 2_000));
      engine.accept(SequencedRecords.tombstone(0, 4, 1));
      engine.accept(SequencedRecords.delete(0, 5, 2, 210, 2_100));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(SequencedRecords.tombstone(0, 6, 2));
      engine.accept(SequencedRecords.tombstone(0, 7, 3));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    } finally {
      engine.close();
    }

    // ordered by source.lsn a change without a position changes nothing a positioned one did not: the tombstone alone neither
    boolean tombstonesDelete = !order.equals("source.lsn");
    Map<Long, Object> deletedAt = new HashMap<>(Map.of(1L, 2_000_000L, 2L, 2_100_000L));
    deletedAt.put(3L, tombstonesDelete ? 7_000L : null);
    assertThat(liveRows()).isEqualTo(tombstonesDelete ? Map.of() : Map.of(3L, "three"));
    assertThat(column("__deleted_at")).as("__deleted_at: the delete's source time; Kafka's (offset 7) for the tombstone alone")
        .containsExactlyInAnyOrderEntriesOf(deletedAt);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Landing.class)
  void aSnapshotRowWithTheLsnOfTheChangeAfterItDoesNotReplaceTheChange(Landing landing) {
    // Debezium 3.6 gives a re-snapshot's rows the WAL position the next change is written at (PostgresOrderedIT saw it)
    IngestEngine engine = open(options(landing, "source.lsn", DeleteMode.HARD));
    try {
      engine.accept(SequencedRecords.upsert(0, 0, "c", 1, "inserted", 1, 100, 1));
      engine.accept(SequencedRecords.upsert(0, 1, "c", 2, "inserted", 1, 110, 1));
      engine.accept(SequencedRecords.upsert(0, 2, "u", 1, "updated", 2, 300, 3));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(SequencedRecords.upsert(0, 3, "u", 2, "updated", 2, 310, 3));
      engine.accept(SequencedRecords.upsert(0, 4, "r", 1, "inserted", 1, 300, 2));
      engine.accept(SequencedRecords.upsert(0, 5, "r", 2, "inserted", 1, 310, 2));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    } finally {
      engine.close();
    }

    assertThat(liveRows()).as("the row in the table, and the change in the buffer, stay").containsExactly(Map.entry(1L, "updated"),
        Map.entry(2L, "updated"));
    assertThat(skipped.get()).isEqualTo(2);
  }

  private IngestOptions options(Landing landing, String order, DeleteMode deleteMode) {
    format = landing.format;
    return landing.apply(IngestOptions.builder(dir.toString(), "sink")).commitInterval(Duration.ZERO)
        .compaction(false, 0.25, 2)
        .changeSemantics(new ChangeSemantics(UpsertOrder.parse(order), deleteMode, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX))
        .build();
  }

  /**
   * Delivers {@code history}'s stream: partitions interleaved at random (partition 1, which the
   * keys moved to, mostly ahead), flushed every few records; with {@code restart}, the engine
   * starts again halfway (forgetting what it remembered of deletes).
   */
  private void deliver(History history, IngestOptions options, long seed, boolean restart) {
    Map<Integer, List<KafkaRecord>> partitions = history.stream();
    Random random = new Random(seed * 31);
    int[] next = new int[2];
    int total = partitions.get(0).size() + partitions.get(1).size();
    IngestEngine engine = open(options);
    try {
      for (int delivered = 0; delivered < total; delivered++) {
        int partition = next[1] < partitions.get(1).size() && (next[0] >= partitions.get(0).size() || random.nextInt(10) < 7) ? 1 : 0;
        engine.accept(partitions.get(partition).get(next[partition]++));
        if (random.nextInt(25) == 0) {
          assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
        }
        if (restart && delivered == total / 2) {
          assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
          engine.close();
          engine = open(options);
        }
      }
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    } finally {
      engine.close();
    }
  }

  private IngestEngine open(IngestOptions options) {
    IngestEngine engine = new IngestEngine(options, new IngestMetrics() {
      @Override
      public void staleChangesSkipped(long changes) {
        skipped.addAndGet(changes);
      }
    });
    engine.open(List.of(new KafkaPartition(TABLE, 0), new KafkaPartition(TABLE, 1)));
    engine.seeksApplied();
    return engine;
  }

  /** id → name of the rows not marked deleted. */
  private Map<Long, String> liveRows() {
    Map<Long, String> live = new TreeMap<>();
    Map<Long, Boolean> deleted = column("__deleted");
    column("name").forEach((id, name) -> {
      if (!Boolean.TRUE.equals(deleted.get(id))) {
        live.put(id, (String) name);
      }
    });
    return live;
  }

  @SuppressWarnings("unchecked")
  private <T> Map<Long, T> column(String name) {
    String path = format.location(dir.toString(), TABLE);
    StructType schema = format.schema(path);
    int id = schema.indexOf("id");
    int column = schema.indexOf(name);
    Map<Long, T> values = new HashMap<>();
    for (Row row : format.readRows(path)) {
      assertThat(values.containsKey((Long) row.get(id))).as("key %s in one row", row.get(id)).isFalse();
      values.put((Long) row.get(id), column < 0 ? null : (T) row.get(column));
    }
    return values;
  }

  /** A PostgreSQL history of one table and the Kafka partitions Debezium's records of it end up in. */
  private record History(List<Change> changes, Map<Integer, Map<Long, String>> states) {
    /** One change: a delete when name is null. */
    record Change(int step, long id, String name, String op) {
      long lsn() {
        return 1_000 + step * 10L;
      }

      long tsMs() {
        return 50_000 + step * 3L;
      }
    }

    static History random(long seed) {
      return random(seed, 3);
    }

    /** Random changes of which about {@code deletesIn10} in ten (of a live key) are deletes. */
    static History random(long seed, int deletesIn10) {
      Random random = new Random(seed);
      Map<Long, String> state = new TreeMap<>();
      List<Change> changes = new ArrayList<>();
      Map<Integer, Map<Long, String>> states = new HashMap<>();
      for (int step = 0; step < STEPS; step++) {
        long id = random.nextInt(KEYS);
        Change change;
        if (!state.containsKey(id)) {
          change = new Change(step, id, "v" + step, "c");
        } else if (random.nextInt(10) < deletesIn10) {
          change = new Change(step, id, null, "d");
        } else {
          change = new Change(step, id, "v" + step, "u");
        }
        if (change.name() == null) {
          state.remove(id);
        } else {
          state.put(id, change.name());
        }
        changes.add(change);
        states.put(step, new TreeMap<>(state));
      }
      return new History(changes, states);
    }

    Map<Long, String> finalState() {
      return states.get(STEPS - 1);
    }

    List<Long> everInserted() {
      return changes.stream().filter(change -> "c".equals(change.op())).map(Change::id).distinct().toList();
    }

    long lastDeleteTsMs(long id) {
      return changes.stream().filter(change -> change.id() == id && change.name() == null).mapToLong(Change::tsMs).max().orElseThrow();
    }

    /**
     * Partition → records in offset order: the stream (a key in partition id % 2, then from
     * {@link #MOVE_AT} in the other one, each delete followed by its tombstone), then a snapshot of
     * the state after {@link #SNAPSHOT_AT} (op r, at the next change's LSN, as Debezium does),
     * then the changes {@link #REPLAY_FROM} to {@link #REPLAY_TO} again.
     */
    Map<Integer, List<KafkaRecord>> stream() {
      Map<Integer, List<KafkaRecord>> partitions = new LinkedHashMap<>();
      partitions.put(0, new ArrayList<>());
      partitions.put(1, new ArrayList<>());
      for (Change change : changes) {
        add(partitions, change, change.step() >= MOVE_AT);
      }
      Change at = changes.get(SNAPSHOT_AT);
      Change next = changes.get(SNAPSHOT_AT + 1);
      states.get(SNAPSHOT_AT).forEach((id, name) -> {
        int partition = (int) ((id + 1) % 2);
        // Debezium gives snapshot rows the WAL position the next change is written at
        partitions.get(partition).add(SequencedRecords.upsert(partition, partitions.get(partition).size(), "r", id, name,
            version(name), next.lsn(), at.tsMs() + 1));
      });
      for (Change change : changes.subList(REPLAY_FROM, REPLAY_TO + 1)) {
        add(partitions, change, true);
      }
      return partitions;
    }

    /** The version column of a row named "v" + step: the step of its last change. */
    private static long version(String name) {
      return Long.parseLong(name.substring(1));
    }

    private static void add(Map<Integer, List<KafkaRecord>> partitions, Change change, boolean moved) {
      int partition = (int) ((change.id() + (moved ? 1 : 0)) % 2);
      List<KafkaRecord> records = partitions.get(partition);
      if (change.name() == null) {
        records.add(SequencedRecords.delete(partition, records.size(), change.id(), change.lsn(), change.tsMs()));
        records.add(SequencedRecords.tombstone(partition, records.size(), change.id()));
      } else {
        records.add(SequencedRecords.upsert(partition, records.size(), change.op(), change.id(), change.name(), change.step(),
            change.lsn(), change.tsMs()));
      }
    }
  }
}
