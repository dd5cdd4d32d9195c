package io.mergesink.ingest.format.iceberg;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.FlushOutcome;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.localconnect.debezium.DebeziumTable;
import io.mergesink.localconnect.debezium.SourceField;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.KeyedChangeModel;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.SequencedRecords;
import io.mergesink.ingest.testing.SinkTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The engine end to end on Iceberg tables in a Hadoop catalog, read back with Iceberg's generic
 * reader: upserts marked in deletion vectors (v3) or position delete files (v2), never equality
 * deletes; positions recovered from snapshot summaries, also across snapshots of other engines;
 * zombies fenced; two writers' positions carried forward; ordering by a source position with hard
 * and soft deletes, decided against the table's rows (history tables: {@code HistoryTablesTest}).
 */
class IcebergEngineTest {
  private static final String TABLE = "customers";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final KafkaPartition P1 = new KafkaPartition(ChangeRecords.TOPIC, 1);

  @TempDir Path temp;
  /** The warehouse, created by the first table: the engine starts before it exists. */
  private Path dir;
  private final KeyedChangeModel changes = new KeyedChangeModel(TABLE);
  private final AtomicInteger fenced = new AtomicInteger();

  @BeforeEach
  void warehouse() {
    dir = temp.resolve("lake");
  }

  @Test
  void upsertsAndDeletesLandAsDeletionVectorsOnePerDataFileAndTheTableHoldsEachKeysLatestRow() throws Exception {
    try (IngestEngine engine = engine(Map.of())) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 0, 9, "v");
      engine.flush();
      changes.upserts(engine, 0, 10, 14, "w");
      changes.delete(engine, 0, 15, 3);
      engine.flush();
      changes.upserts(engine, 0, 16, 18, "x");
      changes.delete(engine, 0, 19, 4);
      engine.flush();
    }
    Table table = table();
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    List<DeleteFile> deletes = IcebergTables.liveDeleteFiles(table);
    assertThat(deletes).isNotEmpty().allSatisfy(delete -> {
      assertThat(delete.format()).isEqualTo(FileFormat.PUFFIN);
      assertThat(delete.content()).isEqualTo(FileContent.POSITION_DELETES);
    });
    assertThat(deletes.stream().map(DeleteFile::referencedDataFile).distinct().count()).as("one deletion vector per data file")
        .isEqualTo(deletes.size());
    assertThat(IcebergTables.positions(table)).containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", 19L));
  }

  @Test
  void anAppendTableHoldsEveryChangeOnceWithItsKafkaPositionAndNoDeletes() throws Exception {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).writeMode(WriteMode.APPEND).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 0, 5, "v");
      engine.flush();
      changes.delete(engine, 0, 6, 1);
      changes.upserts(engine, 0, 7, 8, "w");
      engine.flush();
    }
    Table table = table();
    List<Row> rows = IcebergTables.readRows(table);
    int offset = table.schema().columns().indexOf(table.schema().findField("_kafka_offset"));
    assertThat(rows.stream().map(row -> row.get(offset))).as("one row per change, by its offset")
        .containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    assertThat(IcebergTables.liveDeleteFiles(table)).isEmpty();
  }

  @Test
  void aVersion2TableTakesPositionDeleteFiles() throws Exception {
    try (IngestEngine engine = engine(Map.of("format-version", "2"))) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 0, 9, "v");
      engine.flush();
      changes.upserts(engine, 0, 10, 14, "w");
      changes.delete(engine, 0, 15, 1);
      engine.flush();
    }
    Table table = table();
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(IcebergTables.liveDeleteFiles(table)).isNotEmpty().allSatisfy(delete -> {
      assertThat(delete.format()).isEqualTo(FileFormat.PARQUET);
      assertThat(delete.content()).isEqualTo(FileContent.POSITION_DELETES);
    });
  }

  @Test
  void anEngineStartedAgainResumesFromTheSnapshotSummaryEvenPastASnapshotOfAnotherEngine() throws Exception {
    try (IngestEngine first = engine(Map.of())) {
      first.open(List.of(P0));
      changes.upserts(first, 0, 0, 9, "v");
      first.flush();
    }
    IcebergTables.rewriteEveryDataFile(table());

    try (IngestEngine second = engine(Map.of())) {
      assertThat(second.open(List.of(P0))).containsExactly(Map.entry(P0, 10L));
      second.seeksApplied();
      for (long offset = 5; offset <= 14; offset++) {
        second.accept(offset < 10 ? ChangeRecords.upsert(0, offset, TABLE, offset % 4, "replayed") : changes.upsert(0, offset, offset % 4, "w" + offset));
      }
      second.flush();
      assertThat(second.committedOffsets()).containsExactly(Map.entry(P0, 15L));
    }
    assertThat(IcebergTables.readRows(table())).containsExactlyInAnyOrderElementsOf(changes.rows());
  }

  @Test
  void aCompactionOfAnotherEngineBetweenTwoFlushesMovesTheRowsAndTheNextFlushMarksThemWhereTheyAre() throws Exception {
    try (IngestEngine engine = engine(Map.of())) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 0, 9, "v");
      engine.flush();
      IcebergTables.rewriteEveryDataFile(table()); // the engine planned nothing on it yet: its next commit is validated against it
      changes.upserts(engine, 0, 10, 13, "w");
      changes.delete(engine, 0, 14, 2);
      engine.flush();
      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 15L));
    }
    Table table = table();
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(IcebergTables.positions(table)).containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", 14L));
  }

  @Test
  void theSinkRewritesFilesWhoseDeletesHideAShareOfTheirRowsAndCarriesThePositionsForward() throws Exception {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).compaction(true, 0.25, 2).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      for (long offset = 0; offset < 8; offset++) {
        engine.accept(changes.upsert(0, offset, offset, "v" + offset));
      }
      engine.flush();
      for (long offset = 8; offset < 11; offset++) {
        engine.accept(changes.upsert(0, offset, offset - 8, "w" + offset)); // 3 of the first file's 8 rows replaced: worth a rewrite
      }
      engine.flush();
    } // closing waits for the rewrite
    Table table = table();
    assertThat(table.currentSnapshot().operation()).as("the rewrite is the last commit").isEqualTo("replace");
    assertThat(IcebergTables.liveDeleteFiles(table)).as("the rewritten file's deletion vector went with it").isEmpty();
    assertThat(IcebergTables.positions(table)).containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", 10L));

    try (IngestEngine next = new IngestEngine(options, IngestMetrics.NONE)) {
      assertThat(next.open(List.of(P0))).containsExactly(Map.entry(P0, 11L));
      next.seeksApplied();
      for (long offset = 11; offset < 14; offset++) {
        next.accept(changes.upsert(0, offset, offset - 8, "x" + offset)); // rows that now live in the rewritten file
      }
      next.flush();
    }
    assertThat(IcebergTables.readRows(table())).containsExactlyInAnyOrderElementsOf(changes.rows());
  }

  @Test
  void aTopicThatGrewStaysInKafkaOrderAndAKeyThatMovedPartitionsIsReplacedNotDuplicated() throws Exception {
    try (IngestEngine before = engine(Map.of())) {
      before.open(List.of(P0));
      changes.upserts(before, 0, 0, 3, "v");
      before.flush();
    }
    try (IngestEngine grown = engine(Map.of())) {
      grown.open(List.of(P0, P1)); // P1 never committed to a table that holds P0's positions: the topic grew
      grown.seeksApplied();
      grown.accept(changes.upsert(1, 0, 2, "moved")); // key 2 lives in P0's rows and now comes from P1
      grown.accept(changes.upsert(0, 4, 3, "stayed"));
      grown.flush();
    }
    Table table = table();
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(table.properties()).containsKey("mergesink.lookup.tableScopeTopics");
  }

  @Test
  void aZombieIsFencedAndTheTableHoldsTheNewOwnersChanges() throws Exception {
    try (IngestEngine zombie = engine(Map.of()); IngestEngine owner = engine(Map.of())) {
      zombie.open(List.of(P0));
      changes.upserts(zombie, 0, 0, 4, "v");
      zombie.flush();

      assertThat(owner.open(List.of(P0))).containsExactly(Map.entry(P0, 5L));
      owner.seeksApplied();
      changes.upserts(owner, 0, 5, 9, "owner");
      owner.flush();

      for (long offset = 5; offset <= 7; offset++) {
        zombie.accept(ChangeRecords.upsert(0, offset, TABLE, offset % 4, "zombie"));
      }
      FlushOutcome outcome = zombie.flush();

      assertThat(outcome.seeks()).containsExactly(Map.entry(P0, 10L));
      assertThat(fenced).hasValue(1);
    }
    assertThat(IcebergTables.readRows(table())).containsExactlyInAnyOrderElementsOf(changes.rows());
  }

  @Test
  void twoWritersOfOneTableCarryEachOthersPositionsForward() throws Exception {
    try (IngestEngine a = engine(Map.of()); IngestEngine b = engine(Map.of())) {
      a.open(List.of(P0));
      b.open(List.of(P1));
      changes.upserts(a, 0, 0, 3, "a");
      a.flush();
      b.accept(changes.upsert(1, 0, 100, "b"));
      b.flush();
      changes.upserts(a, 0, 4, 7, "a2"); // planned on the snapshot before b's commit: lands on it, keeping b's position
      a.flush();
      b.accept(changes.upsert(1, 1, 100, "b2"));
      b.flush();
    }
    Table table = table();
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(IcebergTables.positions(table)).containsOnly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", 7L),
        Map.entry("sink:" + ChangeRecords.TOPIC + ":1", 1L));
  }

  @Test
  void aPrimaryKeyChangeTakesTheUnchangedValueFromTheOldKeysRow() throws Exception {
    try (IngestEngine engine = engine(Map.of())) {
      engine.open(List.of(P0));
      engine.accept(changes.upsert(0, 0, 1, "toasted"));
      engine.flush();
      engine.accept(ChangeRecords.keyChangeDelete(0, 1, TABLE, 1, 7));
      engine.accept(ChangeRecords.keyChangeCreate(0, 2, TABLE, 1, 7));
      engine.flush();
    }
    assertThat(IcebergTables.readRows(table())).containsExactly(row(7, "toasted"));
  }

  @Test
  void aNewColumnIsAddedAndAnIntColumnWidenedToLongThroughIcebergsSchemaUpdate() throws Exception {
    DebeziumTable before = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("qty", Schema.OPTIONAL_INT32_SCHEMA).key("id").source(SourceField.TABLE).build();
    DebeziumTable after = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("qty", Schema.OPTIONAL_INT64_SCHEMA).column("email", Schema.OPTIONAL_STRING_SCHEMA).key("id")
        .source(SourceField.TABLE).build();
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).schemaEvolution(SchemaEvolution.WIDEN_TYPES).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.create(before, 0, before.newRow().put("id", 1L).put("qty", 5)));
      engine.accept(ChangeRecords.create(before, 1, before.newRow().put("id", 2L).put("qty", 6)));
      engine.flush();
      engine.accept(ChangeRecords.create(after, 2, after.newRow().put("id", 2L).put("qty", 5_000_000_000L).put("email", "b@example.com")));
      engine.accept(ChangeRecords.create(after, 3, after.newRow().put("id", 3L).put("qty", 7L).put("email", "c@example.com")));
      engine.flush();
    }
    Table table = table();
    assertThat(table.schema().findType("qty")).isEqualTo(Types.LongType.get());
    assertThat(table.schema().findType("email")).isEqualTo(Types.StringType.get());
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrder(Row.of(1L, 5L, null), Row.of(2L, 5_000_000_000L, "b@example.com"),
        Row.of(3L, 7L, "c@example.com"));
  }

  /**
   * Ordered by {@code source.lsn}: an older change delivered after a newer one loses, and so does a
   * delete ordered before the row it would delete; a change ordered after a delete loses to it. With
   * soft deletes the deleted row stays, flagged, with its delete's source time. Copy-on-write tables
   * decide the same, and hold no delete file.
   */
  @ParameterizedTest(name = "{0} deletes, {1}")
  @CsvSource({"HARD, DELETION_VECTORS", "SOFT, DELETION_VECTORS", "SOFT, COPY_ON_WRITE"})
  void orderedBySourcePositionAnOlderChangeOrDeleteArrivingLaterLoses(DeleteMode deletes, MergeStrategy strategy) throws Exception {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .mergeStrategy(strategy).commitInterval(Duration.ZERO).compaction(false, 0.25, 10)
        .changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.lsn"), deletes, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX)).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(new KafkaPartition(SequencedRecords.TOPIC, 0)));
      engine.seeksApplied();
      engine.accept(SequencedRecords.upsert(0, 0, "c", 1, "newest", 2, 200, 2_000));
      engine.accept(SequencedRecords.upsert(0, 1, "c", 2, "two", 1, 300, 3_000));
      engine.flush();
      engine.accept(SequencedRecords.delete(0, 2, 2, 400, 4_000));
      engine.accept(SequencedRecords.upsert(0, 3, "u", 1, "older", 1, 100, 1_000));
      engine.accept(SequencedRecords.delete(0, 4, 1, 150, 1_500));
      engine.flush();
      engine.accept(SequencedRecords.upsert(0, 5, "u", 2, "before the delete", 2, 350, 3_500));
      engine.accept(SequencedRecords.upsert(0, 6, "c", 3, "three", 1, 500, 5_000));
      engine.flush();
    }
    String path = SinkTables.ICEBERG.location(dir.toString(), SequencedRecords.TOPIC);
    List<String> columns = SinkTables.ICEBERG.schema(path).fieldNames();
    Map<Long, List<Object>> rows = new TreeMap<>();
    for (Row row : SinkTables.ICEBERG.readRows(path)) {
      assertThat(rows.put((Long) row.get(0), Arrays.asList(row.get(1), row.get(columns.indexOf(UpsertOrder.LSN_COLUMN)),
          deletes == DeleteMode.SOFT ? row.get(columns.indexOf("__deleted")) : false))).as("one row per key").isNull();
    }
    Map<Long, List<Object>> expected = new TreeMap<>(Map.of(1L, List.of("newest", 200L, false), 3L, List.of("three", 500L, false)));
    if (deletes == DeleteMode.SOFT) {
      expected.put(2L, List.of("two", 400L, true));
    }
    assertThat(rows).isEqualTo(expected);
    if (strategy == MergeStrategy.COPY_ON_WRITE) {
      assertThat(IcebergTables.liveDeleteFiles(IcebergTables.load(path))).isEmpty();
    }
  }


  private Table table() {
    return IcebergTables.load(dir.toString(), "default", TABLE);
  }

  private IngestEngine engine(Map<String, String> tableProperties) {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).tableProperties(tableProperties)
        .compaction(false, 0.25, 10).build();
    return new IngestEngine(options, new IngestMetrics() {
      @Override
      public void fenced() {
        fenced.incrementAndGet();
      }
    });
  }
}
