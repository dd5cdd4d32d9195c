package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.GatedStorage;
import io.mergesink.ingest.testing.HeldCommit;
import io.mergesink.ingest.testing.RacingFlushes;
import io.mergesink.ingest.testing.SequencedRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Two tasks (two engines, one partition each) write one history table with {@code lookup.scope=table}:
 * one truncates or changes keys while the other commits new versions of the same keys. A change set
 * is decided from the current rows it read; when the other task's commit lands first, it is decided
 * again on the table as it is then (docs/design.md, "History tables"). Read back with Delta Kernel:
 * every key has at most one current row, no version is there twice or lost, and the table equals
 * the two tasks' commits applied one after the other in the order the log holds them.
 */
class ConcurrentHistoryTest {
  private static final Pattern TXN = Pattern.compile("\"txn\":\\{[^}]*\\}");
  private static final Pattern APP_ID = Pattern.compile("\"appId\":\"[^\"]*:(\\d+)\"");
  private static final Pattern TXN_VERSION = Pattern.compile("\"version\":(\\d+)");

  @org.junit.jupiter.api.io.TempDir Path dir;

  @AfterEach
  void openTheGate() {
    GatedStorage.gate(GatedStorage.Gate.OPEN);
  }

  /**
   * The truncating task reads every current row, then is held at its commit while the other task
   * changes two keys, deletes one and inserts one: the truncate must close the versions that task
   * made current, once each, and none of the ones it closed.
   */
  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS, false", "COPY_ON_WRITE, false", "DELETION_VECTORS, true", "COPY_ON_WRITE, true"})
  void aTruncateHeldWhileAnotherTaskCommitsClosesWhatThatTaskMadeCurrent(MergeStrategy strategy, boolean ordered) throws Exception {
    Source source = new Source(ordered);
    String root = GatedStorage.root(dir);
    List<KafkaRecord> stream = new ArrayList<>();
    try (IngestEngine truncating = engine(root, strategy, source, 0); IngestEngine other = engine(root, strategy, source, 1)) {
      long offset = 0;
      for (long id = 1; id <= 4; id++) {
        offset = deliver(truncating, stream, source.upsert(0, offset, id, "a" + id));
      }
      assertThat(truncating.flush()).isEqualTo(FlushOutcome.COMPLETE);
      for (long id = 5; id <= 8; id++) {
        offset = deliver(other, stream, source.upsert(1, offset, id, "b" + id));
      }
      assertThat(other.flush()).isEqualTo(FlushOutcome.COMPLETE);

      offset = deliver(other, stream, source.upsert(1, offset, 1, "b1 changed"));
      offset = deliver(other, stream, source.upsert(1, offset, 5, "b5 changed"));
      offset = deliver(other, stream, source.delete(1, offset, 6));
      offset = deliver(other, stream, source.upsert(1, offset, 9, "b9 new"));
      deliver(truncating, stream, source.truncate(0, offset));

      HeldCommit.flushWhileHeld(truncating, source.table(), other);
    }
    List<Row> rows = rows(source);
    assertConsistent(rows, stream, source);
    assertThat(rows).as("the other task's commit, then the truncate").containsExactlyInAnyOrderElementsOf(serialOrder(stream, source));
    assertThat(rows).as("nothing is current after the truncate").noneMatch(row -> Boolean.TRUE.equals(row.get(4)));
  }

  /**
   * The other task commits before every attempt of the truncate's commit: after the last decision
   * the flush fails with a retriable error and keeps its buffer, the table untouched by it; the
   * next flush lands the truncate over everything the other task committed.
   */
  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS, false", "COPY_ON_WRITE, true"})
  void aTruncateTheOtherTaskKeepsOvertakingFailsRetriablyAndLandsLater(MergeStrategy strategy, boolean ordered) throws Exception {
    Source source = new Source(ordered);
    String root = GatedStorage.root(dir);
    List<KafkaRecord> stream = new ArrayList<>();
    ExecutorService otherTask = Executors.newSingleThreadExecutor(task -> new Thread(task, "other-task"));
    try (IngestEngine truncating = engine(root, strategy, source, 0); IngestEngine other = engine(root, strategy, source, 1)) {
      long[] offset = {0};
      offset[0] = deliver(truncating, stream, source.upsert(0, offset[0], 1, "a1"));
      assertThat(truncating.flush()).isEqualTo(FlushOutcome.COMPLETE);
      offset[0] = deliver(truncating, stream, source.truncate(0, offset[0]));
      // offsets of the other task's changes, made while the truncate is buffered: later in time, committed before it
      List<KafkaRecord> overtaking = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        overtaking.add(source.upsert(1, offset[0] + i, 2 + i % 3, "overtaking " + i));
      }
      int[] commits = {0};
      GatedStorage.gate((path, content) -> {
        if (path.contains("/" + source.table() + "/_delta_log/") && Thread.currentThread().getName().equals("truncating-task")) {
          KafkaRecord record = overtaking.get(commits[0]++);
          try {
            FlushOutcome outcome = otherTask.submit(() -> {
              deliver(other, stream, record);
              return other.flush();
            }).get(60, TimeUnit.SECONDS);
            assertThat(outcome).isEqualTo(FlushOutcome.COMPLETE);
          } catch (Exception e) {
            throw new IOException("the other task's commit failed", e);
          }
        }
      });
      ExecutorService truncatingTask = Executors.newSingleThreadExecutor(task -> new Thread(task, "truncating-task"));
      try {
        FlushOutcome failed = truncatingTask.submit(() -> truncating.flush()).get(120, TimeUnit.SECONDS);
        assertThat(failed.failure()).as("deciding again gave up: a retriable failure").isPresent();
        assertThat(truncating.bufferedChanges()).as("the truncate stays buffered").isEqualTo(1);
        assertThat(rows(source)).as("nothing of the truncate landed").anyMatch(row -> Boolean.TRUE.equals(row.get(4)));
        assertConsistent(rows(source), stream.stream().filter(record -> !source.isTruncate(record)).toList(), source);

        GatedStorage.gate(GatedStorage.Gate.OPEN);
        assertThat(truncatingTask.submit(() -> truncating.flush()).get(120, TimeUnit.SECONDS)).isEqualTo(FlushOutcome.COMPLETE);
      } finally {
        truncatingTask.shutdownNow();
      }
      assertThat(commits[0]).as("the other task overtook each decision").isEqualTo(5);
    } finally {
      otherTask.shutdownNow();
    }
    List<Row> rows = rows(source);
    assertConsistent(rows, stream, source);
    assertThat(rows).as("nothing is current after the truncate").noneMatch(row -> Boolean.TRUE.equals(row.get(4)));
    assertThat(rows).containsExactlyInAnyOrderElementsOf(serialOrder(stream, source));
  }

  /**
   * Many rounds: each task buffers random changes of shared keys (now and then a truncate) and both
   * flush at once on two threads; a flush a concurrent commit keeps failing is flushed again.
   */
  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS, false", "COPY_ON_WRITE, false", "DELETION_VECTORS, true", "COPY_ON_WRITE, true"})
  void twoTasksRacingTruncatesAndChangesOfTheSameKeysLeaveASerialHistory(MergeStrategy strategy, boolean ordered) throws Exception {
    Source source = new Source(ordered);
    String root = dir.toString();
    Random random = new Random(551956933683L + strategy.ordinal() * 2L + (ordered ? 1 : 0));
    List<KafkaRecord> stream = new ArrayList<>();
    try (IngestEngine first = engine(root, strategy, source, 0); IngestEngine second = engine(root, strategy, source, 1);
        RacingFlushes race = new RacingFlushes(first, second)) {
      IngestEngine[] engines = {first, second};
      long offset = 0;
      for (int task = 0; task < 2; task++) {
        offset = deliver(engines[task], stream, source.upsert(task, offset, task + 1, "first"));
        assertThat(engines[task].flush()).isEqualTo(FlushOutcome.COMPLETE);
      }
      for (int round = 0; round < 30; round++) {
        for (int task = 0; task < 2; task++) {
          int changes = 1 + random.nextInt(4);
          for (int i = 0; i < changes; i++) {
            long id = 1 + random.nextInt(6);
            int dice = random.nextInt(100);
            KafkaRecord record = dice < 12 ? source.truncate(task, offset)
                : dice < 27 ? source.delete(task, offset, id)
                : source.upsert(task, offset, id, "r" + round + "t" + task + "o" + offset);
            offset = deliver(engines[task], stream, record);
          }
        }
        race.flushAtOnce();
      }
      race.drain();
    }
    List<Row> rows = rows(source);
    assertConsistent(rows, stream, source);
    if (!ordered) {
      // ordered by source position, a change committed after a later one lands in its place instead
      assertThat(rows).as("the commits applied one after the other").containsExactlyInAnyOrderElementsOf(serialOrder(stream, source));
    }
  }

  private static long deliver(IngestEngine engine, List<KafkaRecord> stream, KafkaRecord record) {
    engine.accept(record);
    stream.add(record);
    return record.offset() + 1;
  }

  private IngestEngine engine(String root, MergeStrategy strategy, Source source, int partition) {
    IngestOptions.Builder options = IngestOptions.builder(root, "sink").tableNameFormat("${source.table}")
        .writeMode(WriteMode.HISTORY).mergeStrategy(strategy).truncateEnabled(true).commitInterval(Duration.ZERO)
        .lookupScope(LookupScope.TABLE);
    if (source.ordered) {
      options.changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.HARD,
          ChangeSemantics.DEFAULT_DELETED_KEYS_MAX));
    }
    IngestEngine engine = new IngestEngine(options.build(), new IngestMetrics() {});
    KafkaPartition owned = new KafkaPartition(source.topic(), partition);
    engine.open(List.of(owned));
    engine.seeksApplied();
    return engine;
  }

  /** The table's rows as (id, name, valid from, valid to, current). */
  private List<Row> rows(Source source) {
    List<Row> rows = new ArrayList<>();
    for (Row row : KernelTables.readRows(dir.resolve(source.table()).toString())) {
      rows.add(source.project(row));
    }
    return rows;
  }

  /** At most one current row per key; no version twice; every change of the stream is a version. */
  private static void assertConsistent(List<Row> rows, List<KafkaRecord> stream, Source source) {
    Map<Object, Integer> current = new HashMap<>();
    Set<List<Object>> versions = new HashSet<>();
    for (Row row : rows) {
      if (Boolean.TRUE.equals(row.get(4))) {
        current.merge(row.get(0), 1, Integer::sum);
      }
      assertThat(versions.add(List.of(row.get(0), row.get(2)))).as("version %s is there once", row).isTrue();
    }
    assertThat(current.values()).as("current rows per key").allMatch(count -> count == 1);
    Set<List<Object>> upserts = new HashSet<>();
    for (KafkaRecord record : stream) {
      if (source.isUpsert(record)) {
        upserts.add(List.of(source.id(record), source.time(record.offset())));
      }
    }
    assertThat(versions).as("every change is a version, none lost").isEqualTo(upserts);
  }

  /**
   * SCD type 2 over the stream, each commit's changes applied in the order the log holds the
   * commits: a commit's txn names the partition and the last offset it carries.
   */
  private List<Row> serialOrder(List<KafkaRecord> stream, Source source) throws IOException {
    Map<Integer, Long> applied = new HashMap<>();
    Map<Long, List<Object[]>> versions = new TreeMap<>();
    Path log = dir.resolve(source.table()).resolve("_delta_log");
    List<Path> commits;
    try (var files = Files.list(log)) {
      commits = files.filter(file -> file.getFileName().toString().matches("\\d{20}\\.json")).sorted().toList();
    }
    for (Path commit : commits) {
      Matcher txns = TXN.matcher(Files.readString(commit, StandardCharsets.UTF_8));
      while (txns.find()) {
        Matcher appId = APP_ID.matcher(txns.group());
        Matcher version = TXN_VERSION.matcher(txns.group());
        assertThat(appId.find() && version.find()).as("txn %s", txns.group()).isTrue();
        int partition = Integer.parseInt(appId.group(1));
        long upTo = Long.parseLong(version.group(1));
        long from = applied.getOrDefault(partition, -1L);
        for (KafkaRecord record : stream) {
          if (record.partition().partition() == partition && record.offset() > from && record.offset() <= upTo) {
            apply(versions, record, source);
          }
        }
        applied.put(partition, Math.max(from, upTo));
      }
    }
    List<Row> rows = new ArrayList<>();
    versions.values().forEach(list -> list.forEach(values -> rows.add(Row.of(values))));
    return rows;
  }

  private static void apply(Map<Long, List<Object[]>> versions, KafkaRecord record, Source source) {
    long time = source.time(record.offset());
    if (source.isTruncate(record)) {
      versions.values().forEach(list -> close(list, time));
      return;
    }
    List<Object[]> list = versions.computeIfAbsent(source.id(record), id -> new ArrayList<>());
    close(list, time);
    if (source.isUpsert(record)) {
      list.add(new Object[] {source.id(record), source.name(record), time, null, true});
    }
  }

  private static void close(List<Object[]> list, long time) {
    for (Object[] version : list) {
      if (Boolean.TRUE.equals(version[4])) {
        version[3] = time;
        version[4] = false;
      }
    }
  }

  /**
   * The records of a table in Kafka order ({@link ChangeRecords}), or ordered by {@code source.lsn}
   * ({@link SequencedRecords}, each change's LSN its offset): the same changes, the same times.
   */
  private static final class Source {
    private static final String TABLE = "customers";
    final boolean ordered;

    Source(boolean ordered) {
      this.ordered = ordered;
    }

    String table() {
      return ordered ? "items" : TABLE;
    }

    String topic() {
      return ordered ? SequencedRecords.TOPIC : ChangeRecords.TOPIC;
    }

    KafkaRecord upsert(int partition, long offset, long id, String name) {
      return ordered ? SequencedRecords.upsert(partition, offset, "u", id, name, offset, offset, offset)
          : ChangeRecords.upsert(partition, offset, TABLE, id, name);
    }

    KafkaRecord delete(int partition, long offset, long id) {
      return ordered ? SequencedRecords.delete(partition, offset, id, offset, offset) : ChangeRecords.delete(partition, offset, TABLE, id);
    }

    KafkaRecord truncate(int partition, long offset) {
      return ordered ? SequencedRecords.truncate(partition, offset, offset, offset) : ChangeRecords.truncate(partition, offset, TABLE);
    }

    /** A change's time in microseconds: its envelope's {@code ts_ms}. */
    long time(long offset) {
      return (ordered ? offset + 5 : offset) * 1000;
    }

    boolean isTruncate(KafkaRecord record) {
      return "t".equals(op(record));
    }

    boolean isUpsert(KafkaRecord record) {
      return !isTruncate(record) && !"d".equals(op(record));
    }

    long id(KafkaRecord record) {
      return ((org.apache.kafka.connect.data.Struct) record.key()).getInt64("id");
    }

    String name(KafkaRecord record) {
      return ((org.apache.kafka.connect.data.Struct) record.value()).getStruct("after").getString("name");
    }

    /** (id, name, valid from, valid to, current) of a row of the table. */
    Row project(Row row) {
      int[] columns = ordered ? new int[] {0, 1, 3, 4, 5} : new int[] {0, 1, 2, 3, 4};
      return row.project(columns);
    }

    private static String op(KafkaRecord record) {
      return ((org.apache.kafka.connect.data.Struct) record.value()).getString("op");
    }
  }
}
