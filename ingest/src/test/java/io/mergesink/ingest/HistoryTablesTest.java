package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.decode.LogicalTypes;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.Landing;
import io.mergesink.ingest.testing.SinkTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * History tables ({@code write.mode=history}) through the engine on real Delta tables, read back
 * with Delta Kernel, and on Iceberg tables, read back with Iceberg's generic reader; compared with
 * a model of SCD type 2: random upserts, TOASTed updates, deletes, re-inserts, truncates and
 * primary-key changes, several per key per flush, engines that crash and get the stream again from
 * an older offset; under both landings (Delta), with compaction running.
 */
class HistoryTablesTest {
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final String TABLE = "customers";
  private static final String TOAST = LogicalTypes.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void theTableHoldsEveryVersionOfEveryKeyAndOneCurrentRowPerKeyAcrossCrashesAndReplays(MergeStrategy strategy) throws Exception {
    for (long seed = 1; seed <= 4; seed++) {
      Path root = dir.resolve(strategy.configName() + "-" + seed);
      String path = root.resolve(TABLE).toString();
      holdsEveryVersion(seed, () -> engine(root, strategy), SinkTables.DELTA, path);
      assertThat(KernelTables.properties(path)).containsEntry(CurrentRowColumn.PROPERTY, "__current");
    }
  }

  /** An Iceberg commit costs a few times a Delta one: one seed per strategy. */
  @Test
  void anIcebergHistoryTableHoldsEveryVersionOfEveryKeyAndOneCurrentRowPerKeyAcrossCrashesAndReplays() throws Exception {
    for (long seed = 1; seed <= 2; seed++) {
      MergeStrategy strategy = seed == 1 ? MergeStrategy.DELETION_VECTORS : MergeStrategy.COPY_ON_WRITE;
      Path root = dir.resolve("iceberg-" + seed);
      String path = SinkTables.ICEBERG.location(root.toString(), TABLE);
      holdsEveryVersion(seed, () -> icebergEngine(root, strategy), SinkTables.ICEBERG, path);
      Table table = IcebergTables.load(path);
      if (strategy == MergeStrategy.COPY_ON_WRITE) {
        assertThat(IcebergTables.liveDeleteFiles(table)).as("a copy-on-write table holds no delete file").isEmpty();
      }
      assertThat(table.properties()).containsEntry(CurrentRowColumn.PROPERTY, "__current");
      assertThat(table.schema().identifierFieldIds()).as("several rows per key: no identifier fields").isEmpty();
      assertThat(IcebergTables.hasEqualityDeletes(table)).isFalse();
    }
  }

  /**
   * Runs the random stream of {@code seed} through engines (crashing some, which replay part of it)
   * and compares the table at {@code path}, read with {@code format}'s reader, with the model.
   */
  private static void holdsEveryVersion(long seed, Supplier<IngestEngine> engines, SinkTables format, String path) throws Exception {
    Random random = new Random(seed);
    List<KafkaRecord> stream = new ArrayList<>();
    Model model = new Model();
    long delivered = 0;
    IngestEngine engine = engines.get();
    engine.open(List.of(P0));
    for (int step = 0; step < 160; step++) {
      int dice = random.nextInt(100);
      if (dice < 8) {
        engine.flush();
      } else if (dice < 11) {
        // a crash: the buffered changes are lost, the next engine resumes from the table and gets part of what landed again
        engine.close();
        IngestEngine next = engines.get();
        long resume = next.open(List.of(P0)).getOrDefault(P0, 0L);
        next.seeksApplied();
        for (long offset = Math.max(0, resume - random.nextInt(6)); offset < delivered; offset++) {
          next.accept(stream.get((int) offset));
        }
        engine = next;
      } else {
        for (KafkaRecord record : model.next(random, stream.size())) {
          stream.add(record);
          engine.accept(record);
          delivered++;
        }
      }
    }
    engine.flush();
    assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, (long) stream.size()));
    engine.close();

    List<Row> rows = format.readRows(path);
    assertThat(rows).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(model.versions());
    Map<Object, Long> currentPerKey = rows.stream().filter(row -> Boolean.TRUE.equals(row.get(4)))
        .collect(Collectors.groupingBy(row -> row.get(0), Collectors.counting()));
    assertThat(currentPerKey.values()).as("current rows per key").allMatch(count -> count == 1);
  }

  @ParameterizedTest
  @EnumSource(value = Landing.class, names = {"DELETION_VECTORS", "ICEBERG"})
  void aChangeClosesTheCurrentRowADeleteClosesItAndAReinsertOpensANewVersion(Landing landing) throws Exception {
    Path root = dir.resolve("story");
    try (IngestEngine engine = landing == Landing.ICEBERG ? icebergEngine(root) : engine(root, MergeStrategy.DELETION_VECTORS)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      engine.accept(ChangeRecords.upsert(0, 1, TABLE, 2, "bob"));
      engine.flush();
      engine.accept(ChangeRecords.upsert(0, 2, TABLE, 1, "ada lovelace"));
      engine.accept(ChangeRecords.delete(0, 3, TABLE, 2));
      engine.flush();
      engine.accept(ChangeRecords.upsert(0, 4, TABLE, 2, "bob again"));
      engine.flush();
    }
    assertThat(landing.format.readRows(landing.format.location(root.toString(), TABLE))).containsExactlyInAnyOrder(
        Row.of(1L, "ada", 0L, 2_000L, false),
        Row.of(1L, "ada lovelace", 2_000L, null, true),
        Row.of(2L, "bob", 1_000L, 3_000L, false),
        Row.of(2L, "bob again", 4_000L, null, true));
  }

  /**
   * A change that sets no new value (a re-snapshot of the table after streaming, an update of a
   * TOASTed column alone) leaves the open version open, in the same flush and in a later one.
   */
  @Test
  void aChangeWithTheOpenVersionsValuesOpensNoVersion() throws Exception {
    Path root = dir.resolve("resnapshot");
    try (IngestEngine engine = engine(root, MergeStrategy.COPY_ON_WRITE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      engine.accept(ChangeRecords.upsert(0, 1, TABLE, 1, "ada"));
      engine.accept(ChangeRecords.upsert(0, 2, TABLE, 2, "bob"));
      engine.flush();
      engine.accept(ChangeRecords.upsert(0, 3, TABLE, 1, "ada"));
      engine.accept(ChangeRecords.upsert(0, 4, TABLE, 2, TOAST));
      engine.flush();
      engine.accept(ChangeRecords.upsert(0, 5, TABLE, 2, "bob"));
      engine.accept(ChangeRecords.upsert(0, 6, TABLE, 1, "ada lovelace"));
      engine.flush();
      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 7L));
    }
    assertThat(KernelTables.readRows(root.resolve(TABLE).toString())).containsExactlyInAnyOrder(
        Row.of(1L, "ada", 0L, 6_000L, false),
        Row.of(1L, "ada lovelace", 6_000L, null, true),
        Row.of(2L, "bob", 2_000L, null, true));
  }

  @Test
  void anUpsertTableIsRefusedAsAHistoryTable() throws Exception {
    Path root = dir.resolve("upsert");
    try (IngestEngine upsert = engine(root, WriteMode.UPSERT, MergeStrategy.DELETION_VECTORS)) {
      upsert.open(List.of(P0));
      upsert.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      upsert.flush();
    }
    try (IngestEngine history = engine(root, MergeStrategy.DELETION_VECTORS)) {
      assertThatThrownBy(() -> history.open(List.of(P0)))
          .isInstanceOf(UnsupportedTableException.class).hasMessageContaining("it is not a history table");
    }
    assertThat(KernelTables.readRows(root.resolve(TABLE).toString())).containsExactly(Row.of(1L, "ada"));
  }

  @ParameterizedTest
  @EnumSource(value = WriteMode.class, names = {"UPSERT", "APPEND"})
  void aHistoryTableIsRefusedWhenAnotherWriteModeOpensIt(WriteMode mode) throws Exception {
    Path root = dir.resolve("history-" + mode);
    try (IngestEngine history = engine(root, MergeStrategy.DELETION_VECTORS)) {
      history.open(List.of(P0));
      history.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      history.flush();
    }
    List<Row> before = KernelTables.readRows(root.resolve(TABLE).toString());
    try (IngestEngine other = engine(root, mode, MergeStrategy.DELETION_VECTORS)) {
      assertThatThrownBy(() -> other.open(List.of(P0)))
          .isInstanceOf(UnsupportedTableException.class).hasMessageContaining("it is a history table")
          .hasMessageContaining("write.mode=history");
    }
    assertThat(KernelTables.readRows(root.resolve(TABLE).toString())).containsExactlyElementsOf(before);
  }

  private static IngestEngine engine(Path root, MergeStrategy strategy) {
    return engine(root, WriteMode.HISTORY, strategy);
  }

  private static IngestEngine icebergEngine(Path root) {
    return icebergEngine(root, MergeStrategy.DELETION_VECTORS);
  }

  private static IngestEngine icebergEngine(Path root, MergeStrategy strategy) {
    IngestOptions options = IngestOptions.builder(root.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .mergeStrategy(strategy).tableNameFormat("${source.table}").writeMode(WriteMode.HISTORY).truncateEnabled(true)
        .commitInterval(Duration.ZERO)
        .compaction(true, 0.25, 2).build();
    return new IngestEngine(options, new IngestMetrics() {});
  }

  private static IngestEngine engine(Path root, WriteMode mode, MergeStrategy strategy) {
    IngestOptions options = IngestOptions.builder(root.toString(), "sink").tableNameFormat("${source.table}")
        .writeMode(mode).mergeStrategy(strategy).truncateEnabled(true).commitInterval(Duration.ZERO)
        .compaction(true, 0.25, 2).build();
    return new IngestEngine(options, new IngestMetrics() {});
  }

  /**
   * SCD type 2 over the source stream: per key its versions (id, name, valid from, valid to,
   * current), times in microseconds from the records' {@code ts_ms} (their offsets).
   */
  private static final class Model {
    private final Map<Long, List<Object[]>> versions = new HashMap<>();

    /** The next change of the source: one record, or the two of a primary-key change. */
    List<KafkaRecord> next(Random random, long offset) {
      long time = offset * 1000;
      int dice = random.nextInt(100);
      if (dice < 2) {
        versions.values().forEach(list -> close(list, time));
        return List.of(ChangeRecords.truncate(0, offset, TABLE));
      }
      long id = random.nextInt(6);
      List<Object[]> list = versions.computeIfAbsent(id, key -> new ArrayList<>());
      if (dice < 18) {
        close(list, time);
        return List.of(ChangeRecords.delete(0, offset, TABLE, id));
      }
      Object[] open = open(list);
      long newId = random.nextInt(6);
      if (dice < 24 && open != null && open(versions.computeIfAbsent(newId, key -> new ArrayList<>())) == null) {
        // UPDATE ... SET id = newId with name TOASTed: a delete of the old key, a create of the new one that takes its name
        close(list, time);
        versions.get(newId).add(new Object[] {newId, open[1], time + 1000, null, true});
        return List.of(ChangeRecords.keyChangeDelete(0, offset, TABLE, id, newId),
            ChangeRecords.keyChangeCreate(0, offset + 1, TABLE, id, newId));
      }
      boolean toasted = dice < 36;
      String name = toasted ? (open == null ? null : (String) open[1]) : "v" + offset / 3;
      if (open != null && java.util.Objects.equals(open[1], name)) {
        // nothing changed (a TOASTed update, or the same name again): the open version stays
        return List.of(ChangeRecords.upsert(0, offset, TABLE, id, toasted ? TOAST : name));
      }
      close(list, time);
      list.add(new Object[] {id, name, time, null, true});
      return List.of(ChangeRecords.upsert(0, offset, TABLE, id, toasted ? TOAST : name));
    }

    List<Row> versions() {
      return versions.values().stream().flatMap(List::stream).map(Row::of).toList();
    }

    private static Object[] open(List<Object[]> list) {
      return list.isEmpty() || !(Boolean) list.get(list.size() - 1)[4] ? null : list.get(list.size() - 1);
    }

    private static void close(List<Object[]> list, long time) {
      Object[] open = open(list);
      if (open != null) {
        open[3] = time;
        open[4] = false;
      }
    }
  }
}
