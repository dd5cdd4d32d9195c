package io.mergesink.core.merge;

import static io.mergesink.core.testing.KernelChangeFeed.DELETE;
import static io.mergesink.core.testing.KernelChangeFeed.INSERT;
import static io.mergesink.core.testing.KernelChangeFeed.UPDATE_POSTIMAGE;
import static io.mergesink.core.testing.KernelChangeFeed.UPDATE_PREIMAGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.maintenance.Vacuum;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelChangeFeed.Change;
import io.mergesink.core.testing.KernelChangeFeed.Version;
import io.mergesink.core.testing.KernelChangeFeed;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tables with Change Data Feed: the feed Delta Kernel reads back ({@link KernelChangeFeed}) holds
 * exactly the changes of every commit (inserts, update pre- and postimages, deletes, truncates;
 * nothing for compaction), and replaying it from version 0 rebuilds the rows Kernel reads, under
 * both landings, plain and partitioned, and on top of a table Spark wrote.
 */
class ChangeDataFeedTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("region", PrimitiveType.STRING, true),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("amount", PrimitiveType.LONG, true));
  private static final Map<String, String> CDF = Map.of("delta.enableChangeDataFeed", "true");
  private static final int ROUNDS = 24;
  private static final int KEYS = 400;

  @TempDir Path dir;

  static Stream<Arguments> landings() {
    return Stream.of(
        Arguments.of(MergeStrategy.DELETION_VECTORS, List.of()),
        Arguments.of(MergeStrategy.COPY_ON_WRITE, List.of()),
        Arguments.of(MergeStrategy.DELETION_VECTORS, List.of("region")),
        Arguments.of(MergeStrategy.COPY_ON_WRITE, List.of("region")));
  }

  @ParameterizedTest(name = "{0} partitioned by {1}")
  @MethodSource("landings")
  void theFeedHoldsEveryCommitsChangesAndRebuildsTheTable(MergeStrategy strategy, List<String> partitions) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), partitions, strategy, CDF));
    TableWriter writer = table.newWriter(WriterOptions.defaults(strategy).withCheckpointInterval(5).withTargetFileSizeBytes(2 * 1024));
    Map<Long, Row> model = new HashMap<>();
    Map<Long, List<Change>> expected = new HashMap<>();

    for (int round = 1; round <= ROUNDS; round++) {
      long version;
      if (round % 6 == 0) {
        // two small files in one partition at least, so that there is something to compact
        for (long id = KEYS + 2L * round; id < KEYS + 2L * round + 2; id++) {
          Row inserted = row(id, "eu", "small-" + id, id);
          model.put(id, inserted);
          expected.put(writer.commit(ChangeSet.builder().upsert(inserted).build()).version(), List.of(new Change(inserted, INSERT)));
        }
        CompactionResult compacted = new Compactor(new LocalStorage(), CompactionOptions.defaults().withMinSmallFiles(2)).compact(table.snapshot());
        assertThat(compacted).isInstanceOf(CompactionResult.Compacted.class);
        version = table.snapshot().version();
        writer.refresh();
      } else {
        version = randomCommit(writer, model, random, round, expected);
      }
      expected.putIfAbsent(version, List.of());
    }

    List<Version> feed = KernelChangeFeed.read(table.root());
    String context = strategy + " " + partitions + " seed=" + seed;
    for (Version version : feed) {
      if (version.version() == 0) {
        continue;
      }
      assertThat(version.changes()).as(context + " version " + version.version())
          .containsExactlyInAnyOrderElementsOf(expected.get(version.version()));
      assertThat(version.fromChangeDataFiles() || version.dataChangingRemoves() == 0)
          .as(context + " version " + version.version() + " removes rows without change data files").isTrue();
    }
    assertThat(feed).filteredOn(Version::fromChangeDataFiles).as(context).isNotEmpty();
    assertThat(KernelChangeFeed.rebuild(feed)).as(context).containsExactlyInAnyOrderElementsOf(KernelTables.readRows(table.root()))
        .containsExactlyInAnyOrderElementsOf(model.values());
    if (!partitions.isEmpty()) {
      try (Stream<Path> files = Files.walk(dir.resolve("t").resolve("_change_data"))) {
        assertThat(files.filter(p -> p.toString().endsWith(".parquet")))
            .as("change data files in partition directories").allMatch(p -> p.getParent().getFileName().toString().startsWith("region="));
      }
    }
  }

  @Test
  void aCommitThatOnlyInsertsWritesNoChangeDataAndTheFeedTakesItsAdds() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, CDF));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));

    writer.commit(ChangeSet.builder().upsert(row(1, "eu", "one", 1)).upsert(row(2, "us", "two", 2)).build());
    writer.commit(ChangeSet.builder().upsert(row(2, "us", "two", 20)).upsert(row(3, "eu", "three", 3)).delete(Row.of(1L)).build());

    List<Version> feed = KernelChangeFeed.read(table.root());
    assertThat(feed.get(1).fromChangeDataFiles()).isFalse();
    assertThat(feed.get(1).changes()).containsExactlyInAnyOrder(
        new Change(row(1, "eu", "one", 1), INSERT), new Change(row(2, "us", "two", 2), INSERT));
    assertThat(feed.get(2).fromChangeDataFiles()).isTrue();
    assertThat(feed.get(2).changes()).containsExactlyInAnyOrder(
        new Change(row(2, "us", "two", 2), UPDATE_PREIMAGE), new Change(row(2, "us", "two", 20), UPDATE_POSTIMAGE),
        new Change(row(3, "eu", "three", 3), INSERT), new Change(row(1, "eu", "one", 1), DELETE));
    assertThat(KernelTables.protocol(table.root()).writerFeatures()).contains("changeDataFeed");
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aHistoryTablesClosedVersionsAreInsertsAndItsCurrentRowsUpdates(MergeStrategy strategy) throws Exception {
    StructType schema = StructType.of(new StructField("id", PrimitiveType.LONG, false), new StructField("name", PrimitiveType.STRING, true),
        new StructField("current", PrimitiveType.BOOLEAN, false));
    Map<String, String> properties = new HashMap<>(CurrentRowColumn.toProperty("current"));
    properties.putAll(CDF);
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(schema, List.of("id"), strategy, properties));
    TableWriter writer = table.newWriter(WriterOptions.defaults(strategy));

    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a1", true)).upsert(Row.of(2L, "b1", true)).build());
    writer.commit(ChangeSet.builder().append(Row.of(1L, "a1", false)).upsert(Row.of(1L, "a2", true))
        .append(Row.of(2L, "b1", false)).delete(Row.of(2L)).build());

    List<Version> feed = KernelChangeFeed.read(table.root());
    assertThat(feed.get(2).changes()).containsExactlyInAnyOrder(
        new Change(Row.of(1L, "a1", true), UPDATE_PREIMAGE), new Change(Row.of(1L, "a2", true), UPDATE_POSTIMAGE),
        new Change(Row.of(1L, "a1", false), INSERT), new Change(Row.of(2L, "b1", true), DELETE), new Change(Row.of(2L, "b1", false), INSERT));
    assertThat(KernelChangeFeed.rebuild(feed)).containsExactlyInAnyOrderElementsOf(KernelTables.readRows(table.root()));
  }

  @Test
  void aTableWithoutChangeDataFeedGetsNoChangeDataFiles() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));

    writer.commit(ChangeSet.builder().upsert(row(1, "eu", "one", 1)).build());
    writer.commit(ChangeSet.builder().upsert(row(1, "eu", "one", 10)).build());
    writer.commit(ChangeSet.builder().delete(Row.of(1L)).build());

    assertThat(dir.resolve("t").resolve("_change_data")).doesNotExist();
    assertThat(KernelChangeFeed.read(table.root())).noneMatch(Version::fromChangeDataFiles);
  }

  @Test
  void writesOnTopOfTheSparkTableKeepItsFeed() throws Exception {
    Path root = FixtureTables.copy("cdf-table", dir.resolve("cdf-table"));
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toString());
    List<Row> sparkRows = KernelTables.readRows(table.root());
    Map<Long, Row> model = new HashMap<>();
    sparkRows.forEach(row -> model.put((Long) row.get(0), row));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS), List.of("id"));

    Row updated = Row.of(1L, "renamed-1", new BigDecimal("100.00"));
    Row inserted = Row.of(500L, "new-500", new BigDecimal("5.00"));
    writer.commit(ChangeSet.builder().upsert(updated).upsert(inserted).delete(Row.of(2L)).build());

    List<Version> feed = KernelChangeFeed.read(table.root());
    assertThat(feed).hasSize(6);
    assertThat(changesOf(feed.subList(0, 5))).as("Spark's own feed, read by the test reader")
        .containsExactlyInAnyOrderElementsOf(sparkChanges(FixtureTables.path("cdf-table")));
    assertThat(feed.get(5).fromChangeDataFiles()).isTrue();
    assertThat(feed.get(5).changes()).containsExactlyInAnyOrder(
        new Change(model.get(1L), UPDATE_PREIMAGE), new Change(updated, UPDATE_POSTIMAGE),
        new Change(inserted, INSERT), new Change(model.get(2L), DELETE));
    model.put(1L, updated);
    model.put(500L, inserted);
    model.remove(2L);
    assertThat(KernelChangeFeed.rebuild(feed)).containsExactlyInAnyOrderElementsOf(KernelTables.readRows(table.root()))
        .containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void vacuumKeepsChangeDataFilesForTheRetentionAndDeletesThemAfterwards() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, CDF));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    writer.commit(ChangeSet.builder().upsert(row(1, "eu", "one", 1)).build());
    writer.commit(ChangeSet.builder().upsert(row(1, "eu", "one", 10)).build());
    Vacuum vacuum = new Vacuum(new LocalStorage());
    Duration week = Duration.ofDays(7);

    vacuum.execute(vacuum.plan(table.snapshot(), week, System.currentTimeMillis()));
    assertThat(changeDataFiles()).hasSize(1);
    assertThat(KernelChangeFeed.read(table.root()).get(2).changes()).hasSize(2);

    vacuum.execute(vacuum.plan(table.snapshot(), week, System.currentTimeMillis() + week.toMillis() + 60_000));
    assertThat(changeDataFiles()).isEmpty();
    assertThat(KernelTables.readRows(table.root())).containsExactly(row(1, "eu", "one", 10));
  }

  @Test
  void aColumnNamedAsAChangeFeedColumnIsRefused() throws Exception {
    StructType schema = SCHEMA.add(new StructField("_change_type", PrimitiveType.STRING, true));
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());

    assertThatThrownBy(() -> {
      table.createIfAbsent(new TableSpec(schema, List.of("id"), MergeStrategy.DELETION_VECTORS, CDF));
      table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    }).isInstanceOf(UnsupportedTableException.class).hasMessageContaining("column '_change_type', a name the change data feed reserves");
  }

  private List<Path> changeDataFiles() throws Exception {
    try (Stream<Path> files = Files.walk(dir.resolve("t").resolve("_change_data"))) {
      return files.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }

  /** One random commit of upserts (some with unchanged columns), deletes and now and then a truncate; returns its version. */
  private static long randomCommit(TableWriter writer, Map<Long, Row> model, Random random, int round,
      Map<Long, List<Change>> expected) throws Exception {
    ChangeSet.Builder changes = ChangeSet.builder();
    List<Change> expectedChanges = new ArrayList<>();
    if (round % 7 == 0) {
      changes.truncate();
      model.values().forEach(row -> expectedChanges.add(new Change(row, DELETE)));
      model.clear();
    }
    boolean truncating = round % 7 == 0;
    Map<Long, Row> batch = new LinkedHashMap<>();
    int size = random.nextInt(120);
    for (int i = 0; i < size; i++) {
      long id = random.nextInt(KEYS);
      batch.put(id, random.nextInt(4) == 0 && !truncating ? null
          : row(id, random.nextBoolean() ? "eu" : "us", "name-" + round + "-" + random.nextInt(3), random.nextInt(1000)));
    }
    for (Map.Entry<Long, Row> change : batch.entrySet()) {
      long id = change.getKey();
      Row old = model.get(id);
      if (change.getValue() == null) {
        changes.delete(Row.of(id));
        if (old != null) {
          expectedChanges.add(new Change(old, DELETE));
          model.remove(id);
        }
        continue;
      }
      Row upsert = change.getValue();
      Row landed = upsert;
      if (random.nextInt(5) == 0) {
        // a TOASTed column: the row keeps its current name
        upsert = Row.of(upsert.get(0), upsert.get(1), Unchanged.VALUE, upsert.get(3));
        landed = Row.of(upsert.get(0), upsert.get(1), old == null ? null : old.get(2), upsert.get(3));
      }
      changes.upsert(upsert);
      if (old == null) {
        expectedChanges.add(new Change(landed, INSERT));
      } else {
        expectedChanges.add(new Change(old, UPDATE_PREIMAGE));
        expectedChanges.add(new Change(landed, UPDATE_POSTIMAGE));
      }
      model.put(id, landed);
    }
    ChangeSet changeSet = changes.build();
    if (!changeSet.hasRowChanges()) {
      return writer.snapshot().version();
    }
    long version = writer.commit(changeSet).version();
    expected.put(version, expectedChanges);
    return version;
  }

  private static List<Change> changesOf(List<Version> versions) {
    List<Change> changes = new ArrayList<>();
    for (Version version : versions) {
      version.changes().forEach(change -> changes.add(new Change(Row.of(change.row().get(0), change.row().get(1), change.row().get(2),
          change.type(), version.version()), change.type())));
    }
    return changes;
  }

  /** Spark's {@code table_changes} of the fixture, as the changes {@link #changesOf} gives. */
  private static List<Change> sparkChanges(Path root) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    List<Change> changes = new ArrayList<>();
    for (String line : Files.readAllLines(root.resolve("EXPECTED_CHANGES.jsonl"))) {
      JsonNode change = mapper.readTree(line);
      String type = change.get("_change_type").asText();
      changes.add(new Change(Row.of(change.get("id").asLong(), change.get("name").asText(), new BigDecimal(change.get("amount").asText()),
          type, change.get("_commit_version").asLong()), type));
    }
    return changes;
  }

  private static Row row(long id, String region, String name, long amount) {
    return Row.of(id, region, name, amount);
  }
}
