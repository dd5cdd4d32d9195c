package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.SequencedRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * History tables with {@code upsert.order.by} on real tables, read back with Delta Kernel and
 * compared, row by row, with the history a model builds from the source's changes sorted by their
 * sequence: a PostgreSQL history of random keys is delivered out of order and twice (its keys move
 * to the other partition halfway, a re-snapshot taken mid-stream arrives after the stream, Debezium
 * restarted from an older LSN sends a stretch of changes again), across many flushes, with engines
 * that crash and get the stream again from an older offset, compaction running beside, under both
 * landings. Every late change must land in its place: at most one current row per key, and each
 * key's versions contiguous in sequence order.
 */
class OrderedHistoryTest {
  private static final String TABLE = SequencedRecords.TOPIC;
  private static final int STEPS = 240;
  private static final int KEYS = 12;
  private static final int MOVE_AT = 120;
  private static final int SNAPSHOT_AT = 160;
  private static final int REPLAY_FROM = 60;
  private static final int REPLAY_TO = 150;

  @TempDir Path dir;
  private final AtomicLong skipped = new AtomicLong();

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (MergeStrategy strategy : List.of(MergeStrategy.DELETION_VECTORS, MergeStrategy.COPY_ON_WRITE)) {
      for (String order : List.of("source.lsn", "source.ts_ms")) {
        for (long seed : List.of(1L, 2L, 3L)) {
          cases.add(Arguments.of(strategy, order, seed));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, {1}, seed {2}")
  @MethodSource("cases")
  void lateChangesLandInTheirPlaceOfTheHistoryAcrossCrashesAndReplays(MergeStrategy strategy, String order, long seed) {
    History history = History.random(seed);
    Path root = dir.resolve(strategy.configName() + "-" + order + "-" + seed);
    deliver(history, options(root, strategy, order), seed);

    String sequence = UpsertOrder.parse(order).column();
    List<Row> rows = rows(root, sequence);
    assertThat(rows).as("every version, in its place").containsExactlyInAnyOrderElementsOf(history.versions(order));
    Map<Object, Long> currentPerKey = rows.stream().filter(row -> Boolean.TRUE.equals(row.get(5)))
        .collect(Collectors.groupingBy(row -> row.get(0), Collectors.counting()));
    assertThat(currentPerKey.values()).as("current rows per key").allMatch(count -> count == 1);
    assertThat(skipped.get()).as("changes delivered again, skipped").isPositive();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aLateChangeSplitsTheVersionBeforeItALateDeleteEndsItAndALateUpdateOfADeletedKeyLandsBeforeTheDelete(MergeStrategy strategy)
      throws Exception {
    Path root = dir.resolve(strategy.configName());
    try (IngestEngine engine = open(options(root, strategy, "source.lsn"))) {
      engine.accept(SequencedRecords.upsert(0, 0, "c", 1, "a", 1, 100, 1));
      engine.accept(SequencedRecords.upsert(0, 1, "u", 1, "c", 3, 300, 3));
      engine.accept(SequencedRecords.upsert(0, 2, "c", 2, "x", 1, 110, 1));
      engine.accept(SequencedRecords.delete(0, 3, 2, 400, 4));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      // late: key 1's update at 200 (between a and c), key 2's update at 200 (after x, before its delete at 400),
      // a delete of key 1 at 250, an update of key 1 before its first version
      engine.accept(SequencedRecords.upsert(1, 0, "u", 1, "b", 2, 200, 2));
      engine.accept(SequencedRecords.upsert(1, 1, "u", 2, "y", 2, 200, 2));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(SequencedRecords.delete(1, 2, 1, 250, 2));
      engine.accept(SequencedRecords.upsert(1, 3, "c", 1, "zero", 0, 50, 0));
      engine.accept(SequencedRecords.upsert(0, 4, "u", 1, "c", 3, 300, 3)); // the same change again
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }
    // times: the envelope's ts_ms (the source's + 5) in microseconds
    assertThat(rows(root, UpsertOrder.LSN_COLUMN)).containsExactlyInAnyOrder(
        Row.of(1L, "zero", 0L, 5_000L, 6_000L, false, 50L, 100L),
        Row.of(1L, "a", 1L, 6_000L, 7_000L, false, 100L, 200L),
        Row.of(1L, "b", 2L, 7_000L, 7_000L, false, 200L, 250L),
        Row.of(1L, "c", 3L, 8_000L, null, true, 300L, null),
        Row.of(2L, "x", 1L, 6_000L, 7_000L, false, 110L, 200L),
        Row.of(2L, "y", 2L, 7_000L, 9_000L, false, 200L, 400L));
    assertThat(skipped.get()).as("the change delivered twice").isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void theReadmeExampleInSourceOrderAndInKafkaOrder(MergeStrategy strategy) throws Exception {
    // source times in minutes after 10:00 (the envelope's ts_ms is the source's + 5 ms)
    List<KafkaRecord> stream = List.of(
        SequencedRecords.upsert(0, 0, "c", 1, "ada", 1, 100, minutes(0)),
        SequencedRecords.upsert(0, 1, "u", 1, "ada lovelace", 3, 300, minutes(10)),
        SequencedRecords.delete(0, 2, 1, 400, minutes(60)),
        SequencedRecords.upsert(0, 3, "u", 1, "ada king", 2, 200, minutes(5)),
        SequencedRecords.upsert(0, 4, "u", 1, "ada lovelace", 3, 300, minutes(10)));
    for (String order : List.of("source.lsn", "none")) {
      Path root = dir.resolve(strategy.configName() + "-" + order);
      try (IngestEngine engine = open(options(root, strategy, order))) {
        for (KafkaRecord record : stream) {
          engine.accept(record);
          assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
        }
      }
      List<Row> rows = KernelTables.readRows(root.resolve(TABLE).toString()).stream()
          .map(row -> Row.of(row.get(1), row.get(3), row.get(4), row.get(5))).toList();
      if (order.equals("none")) {
        assertThat(rows).containsExactlyInAnyOrder(Row.of("ada", time(0), time(10), false),
            Row.of("ada lovelace", time(10), time(60), false), Row.of("ada king", time(5), time(10), false),
            Row.of("ada lovelace", time(10), null, true));
      } else {
        assertThat(rows).containsExactlyInAnyOrder(Row.of("ada", time(0), time(5), false),
            Row.of("ada king", time(5), time(10), false), Row.of("ada lovelace", time(10), time(60), false));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void orderedByAColumnOfTheTableVersionsKeepItAndDeletesEndTheCurrentVersionInKafkaOrder(MergeStrategy strategy) throws Exception {
    Path root = dir.resolve(strategy.configName());
    try (IngestEngine engine = open(options(root, strategy, "version"))) {
      engine.accept(SequencedRecords.upsert(0, 0, "c", 1, "a", 1, 100, 1));
      engine.accept(SequencedRecords.upsert(0, 1, "u", 1, "c", 3, 300, 3));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(SequencedRecords.upsert(1, 0, "u", 1, "b", 2, 200, 2));
      engine.accept(SequencedRecords.delete(1, 1, 1, 400, 4));
      engine.accept(SequencedRecords.upsert(1, 2, "u", 1, "a", 1, 100, 1)); // the first version again
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }
    assertThat(KernelTables.schema(root.resolve(TABLE).toString()).fieldNames()).containsExactly("id", "name", "version",
        "__valid_from", "__valid_to", "__current", "__valid_to_version");
    assertThat(rows(root, "version")).containsExactlyInAnyOrder(
        Row.of(1L, "a", 1L, 6_000L, 7_000L, false, 1L, 2L),
        Row.of(1L, "b", 2L, 7_000L, 8_000L, false, 2L, 3L),
        Row.of(1L, "c", 3L, 8_000L, 9_000L, false, 3L, null));
    assertThat(skipped.get()).as("the first version delivered again").isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aTruncateClosesEveryCurrentVersionAndALateChangeLandsBeforeIt(MergeStrategy strategy) throws Exception {
    Path root = dir.resolve(strategy.configName());
    IngestOptions options = IngestOptions.builder(root.toString(), "sink").commitInterval(Duration.ZERO).mergeStrategy(strategy)
        .writeMode(WriteMode.HISTORY).truncateEnabled(true)
        .changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.HARD, 10)).build();
    try (IngestEngine engine = open(options)) {
      engine.accept(SequencedRecords.upsert(0, 0, "c", 1, "a", 1, 100, 1));
      engine.accept(SequencedRecords.upsert(0, 1, "c", 2, "x", 1, 110, 1));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(SequencedRecords.upsert(0, 2, "u", 2, "y", 2, 150, 2)); // before the truncate, in the same flush
      engine.accept(SequencedRecords.truncate(0, 3, 200, 3));
      engine.accept(SequencedRecords.upsert(0, 4, "c", 1, "a again", 3, 300, 4));
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      engine.accept(SequencedRecords.upsert(1, 0, "u", 1, "b", 2, 160, 2)); // late: before the truncate
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }
    assertThat(rows(root, UpsertOrder.LSN_COLUMN)).containsExactlyInAnyOrder(
        Row.of(1L, "a", 1L, 6_000L, 7_000L, false, 100L, 160L),
        Row.of(1L, "b", 2L, 7_000L, 8_000L, false, 160L, 200L),
        Row.of(1L, "a again", 3L, 9_000L, null, true, 300L, null),
        Row.of(2L, "x", 1L, 6_000L, 7_000L, false, 110L, 150L),
        Row.of(2L, "y", 2L, 7_000L, 8_000L, false, 150L, 200L));
  }

  private static long minutes(long minutes) {
    return 36_000_000L + minutes * 60_000L;
  }

  /** {@link #minutes} as the table's TIMESTAMP: the envelope's ts_ms in microseconds. */
  private static long time(long minutes) {
    return (minutes(minutes) + 5) * 1000;
  }

  private static IngestOptions options(Path root, MergeStrategy strategy, String order) {
    return IngestOptions.builder(root.toString(), "sink").commitInterval(Duration.ZERO).mergeStrategy(strategy)
        .writeMode(WriteMode.HISTORY).compaction(true, 0.25, 2)
        .changeSemantics(new ChangeSemantics(UpsertOrder.parse(order), DeleteMode.HARD, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX))
        .build();
  }

  /**
   * Delivers {@code history}'s stream: partitions interleaved at random, flushed every few records;
   * now and then the engine crashes (its buffer is lost) and the next one gets the stream again
   * from a little before what it committed.
   */
  private void deliver(History history, IngestOptions options, long seed) {
    Map<Integer, List<KafkaRecord>> partitions = history.stream();
    Random random = new Random(seed * 31);
    int total = partitions.get(0).size() + partitions.get(1).size();
    int[] next = new int[2];
    IngestEngine engine = open(options);
    try {
      for (int delivered = 0; delivered < total; delivered++) {
        int partition = next[1] < partitions.get(1).size() && (next[0] >= partitions.get(0).size() || random.nextInt(10) < 6) ? 1 : 0;
        engine.accept(partitions.get(partition).get(next[partition]++));
        int dice = random.nextInt(100);
        if (dice < 6) {
          assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
        } else if (dice < 8) {
          engine.close();
          engine = new IngestEngine(options, metrics());
          Map<KafkaPartition, Long> committed = engine.open(List.of(partition(0), partition(1)));
          engine.seeksApplied();
          for (int p = 0; p < 2; p++) {
            next[p] = (int) Math.max(0, committed.getOrDefault(partition(p), 0L) - random.nextInt(6));
          }
          delivered = next[0] + next[1] - 1;
        }
      }
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    } finally {
      engine.close();
    }
  }

  private IngestEngine open(IngestOptions options) {
    IngestEngine engine = new IngestEngine(options, metrics());
    engine.open(List.of(partition(0), partition(1)));
    engine.seeksApplied();
    return engine;
  }

  private IngestMetrics metrics() {
    return new IngestMetrics() {
      @Override
      public void staleChangesSkipped(long changes) {
        skipped.addAndGet(changes);
      }
    };
  }

  private static KafkaPartition partition(int partition) {
    return new KafkaPartition(TABLE, partition);
  }

  /** The table's rows as (id, name, version, valid from, valid to, current, sequence, end sequence). */
  private static List<Row> rows(Path root, String sequence) {
    String path = root.resolve(TABLE).toString();
    StructType schema = KernelTables.schema(path);
    int[] columns = Stream.of("id", "name", "version", "__valid_from", "__valid_to", "__current", sequence,
        "__valid_to_" + sequence.replaceFirst("^_+", "")).mapToInt(schema::indexOf).toArray();
    assertThat(columns).doesNotContain(-1);
    return KernelTables.readRows(path).stream().map(row -> row.project(columns)).toList();
  }

  /** A PostgreSQL history of one table and the Kafka partitions Debezium's records of it end up in. */
  private record History(List<Change> changes, List<Change> snapshot) {
    /** One change: a delete when name is null; its positions are unique, and in the same order. */
    record Change(long id, String name, String op, long version, long lsn, long tsMs) {}

    static History random(long seed) {
      Random random = new Random(seed);
      Map<Long, String> state = new TreeMap<>();
      List<Change> changes = new ArrayList<>();
      List<Change> snapshot = new ArrayList<>();
      for (int step = 0; step < STEPS; step++) {
        long id = random.nextInt(KEYS);
        long lsn = 1_000 + step * 10L;
        long tsMs = 50_000 + step * 3L;
        Change change;
        if (!state.containsKey(id)) {
          change = new Change(id, "v" + step, "c", step, lsn, tsMs);
        } else if (random.nextInt(10) < 3) {
          change = new Change(id, null, "d", step, lsn, tsMs);
        } else {
          change = new Change(id, "v" + step, "u", step, lsn, tsMs);
        }
        if (change.name() == null) {
          state.remove(id);
        } else {
          state.put(id, change.name());
        }
        changes.add(change);
        if (step == SNAPSHOT_AT) {
          // a re-snapshot read between this change and the next: its rows come after the stream
          state.forEach((key, name) -> snapshot.add(new Change(key, name, "r", Long.parseLong(name.substring(1)), lsn + 5, tsMs + 1)));
        }
      }
      return new History(changes, snapshot);
    }

    /**
     * SCD type 2 of every change (snapshot rows included), sorted by sequence: each change of a
     * key ends its open version and opens one; a delete ends it. Rows as {@link #rows} reads them.
     */
    List<Row> versions(String order) {
      List<Change> sorted = new ArrayList<>(changes);
      sorted.addAll(snapshot);
      sorted.sort(Comparator.comparingLong(order.equals("source.lsn") ? Change::lsn : Change::tsMs));
      Map<Long, List<Object[]>> versions = new LinkedHashMap<>();
      for (Change change : sorted) {
        List<Object[]> list = versions.computeIfAbsent(change.id(), key -> new ArrayList<>());
        Object sequence = order.equals("source.lsn") ? change.lsn() : change.tsMs();
        long time = (change.tsMs() + 5) * 1000;
        Object[] open = list.isEmpty() || !(Boolean) list.get(list.size() - 1)[5] ? null : list.get(list.size() - 1);
        if (open != null) {
          open[4] = time;
          open[5] = false;
          open[7] = sequence;
        }
        if (change.name() != null) {
          list.add(new Object[] {change.id(), change.name(), change.version(), time, null, true, sequence, null});
        }
      }
      return versions.values().stream().flatMap(List::stream).map(Row::of).toList();
    }

    /**
     * Partition → records in offset order: the stream (a key in partition id % 2, then from
     * {@link #MOVE_AT} in the other one, each delete followed by its tombstone), then the snapshot,
     * then the changes {@link #REPLAY_FROM} to {@link #REPLAY_TO} again.
     */
    Map<Integer, List<KafkaRecord>> stream() {
      Map<Integer, List<KafkaRecord>> partitions = new HashMap<>();
      partitions.put(0, new ArrayList<>());
      partitions.put(1, new ArrayList<>());
      for (int step = 0; step < changes.size(); step++) {
        add(partitions, changes.get(step), step >= MOVE_AT);
      }
      snapshot.forEach(row -> add(partitions, row, true));
      for (Change change : changes.subList(REPLAY_FROM, REPLAY_TO + 1)) {
        add(partitions, change, true);
      }
      return partitions;
    }

    private static void add(Map<Integer, List<KafkaRecord>> partitions, Change change, boolean moved) {
      int partition = (int) ((change.id() + (moved ? 1 : 0)) % 2);
      List<KafkaRecord> records = partitions.get(partition);
      if (change.name() == null) {
        records.add(SequencedRecords.delete(partition, records.size(), change.id(), change.lsn(), change.tsMs()));
        records.add(SequencedRecords.tombstone(partition, records.size(), change.id()));
      } else {
        records.add(SequencedRecords.upsert(partition, records.size(), change.op(), change.id(), change.name(), change.version(),
            change.lsn(), change.tsMs()));
      }
    }
  }
}
