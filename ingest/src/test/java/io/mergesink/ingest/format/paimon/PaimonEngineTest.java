package io.mergesink.ingest.format.paimon;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.FlushOutcome;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.PaimonOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.KeyedChangeModel;
import io.mergesink.ingest.testing.PaimonTables;
import io.mergesink.localconnect.debezium.DebeziumTable;
import io.mergesink.localconnect.debezium.SourceField;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine end to end on Paimon primary-key tables in a filesystem catalog, read back with
 * Paimon's own reader: upserts and deletes land as {@code +I}/{@code -D} rows that Paimon's lookup
 * turns into deletion vectors; positions recovered from snapshot properties, also after Paimon
 * expired the snapshots that moved them; zombies fenced; two writers' positions carried forward;
 * columns added and widened through Paimon's schema manager.
 */
class PaimonEngineTest {
  private static final String TABLE = "customers";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final KafkaPartition P1 = new KafkaPartition(ChangeRecords.TOPIC, 1);
  private static final String POSITION_0 = "sink:" + ChangeRecords.TOPIC + ":0";
  private static final String POSITION_1 = "sink:" + ChangeRecords.TOPIC + ":1";
  /** Events whose {@code source} block carries PostgreSQL's {@code lsn} and {@code ts_ms}. */
  private static final DebeziumTable POSITIONED = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
      .column("name", Schema.OPTIONAL_STRING_SCHEMA).key("id").source(SourceField.TS_MS, SourceField.TABLE, SourceField.LSN).build();

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
  void upsertsAndDeletesLandInAPrimaryKeyTableWithDeletionVectorsAndTheReaderSeesEachKeysLatestRow() throws Exception {
    try (IngestEngine engine = engine(Map.of("bucket", "4"))) {
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
    FileStoreTable table = table();
    assertThat(table.primaryKeys()).containsExactly("id");
    assertThat(table.options()).containsEntry("deletion-vectors.enabled", "true").containsEntry("merge-engine", "deduplicate")
        .containsEntry("bucket", "4");
    assertThat(PaimonTables.readRows(table)).as("deletion-vector reads skip level 0: every commit compacted its rows up")
        .containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.positions(table)).containsExactly(Map.entry(POSITION_0, 19L));
  }

  /** The new owner resumes from the snapshot properties, where a replayed change is skipped; the old one is fenced. */
  @Test
  void aZombieIsFencedAndTheNewOwnerResumesFromTheSnapshotProperties() throws Exception {
    try (IngestEngine zombie = engine(Map.of()); IngestEngine owner = engine(Map.of())) {
      zombie.open(List.of(P0));
      changes.upserts(zombie, 0, 0, 4, "v");
      zombie.flush();

      assertThat(owner.open(List.of(P0))).containsExactly(Map.entry(P0, 5L));
      owner.seeksApplied();
      owner.accept(ChangeRecords.upsert(0, 4, TABLE, 0, "replayed"));
      changes.upserts(owner, 0, 5, 9, "owner");
      owner.flush();
      assertThat(owner.committedOffsets()).containsExactly(Map.entry(P0, 10L));

      for (long offset = 5; offset <= 7; offset++) {
        zombie.accept(ChangeRecords.upsert(0, offset, TABLE, offset % 4, "zombie"));
      }
      FlushOutcome outcome = zombie.flush();

      assertThat(outcome.seeks()).containsExactly(Map.entry(P0, 10L));
      assertThat(fenced).hasValue(1);
    }
    FileStoreTable table = table();
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.positions(table)).containsExactly(Map.entry(POSITION_0, 9L));
  }

  /** Paimon keeps one snapshot here: each position lives on only because every commit carries it forward. */
  @Test
  void twoWritersOfOneTableCarryEachOthersPositionsForwardPastExpiredSnapshots() throws Exception {
    Map<String, String> keepOne = Map.of("snapshot.num-retained.min", "1", "snapshot.num-retained.max", "1");
    try (IngestEngine a = engine(keepOne); IngestEngine b = engine(keepOne)) {
      a.open(List.of(P0));
      b.open(List.of(P1));
      b.accept(changes.upsert(1, 0, 100, "b"));
      b.flush();
      for (long round = 0; round < 2; round++) {
        changes.upserts(a, 0, round * 4, round * 4 + 3, "a" + round); // each commit lands on the other writer's last one
        a.flush();
      }
      b.accept(changes.upsert(1, 1, 100, "b2"));
      b.flush();
      changes.upserts(a, 0, 8, 13, "a2");
      a.flush();
    }
    FileStoreTable table = table();
    assertThat(table.snapshotManager().earliestSnapshotId()).as("earlier snapshots expired").isGreaterThan(1L);
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.positions(table)).containsOnly(Map.entry(POSITION_0, 13L), Map.entry(POSITION_1, 1L));
  }

  /**
   * Two tasks flush into the one bucket at the same moment, round after round: each commit compacts
   * the bucket, so their compactions race; whichever loses, no row is lost or doubled and no
   * position goes astray. The last flush compacts what a lost compaction left in level 0.
   */
  @Test
  void twoTasksFlushingIntoOneBucketAtOnceLoseNoRowAndDoubleNone() throws Exception {
    int rounds = 3;
    Phaser together = new Phaser(2);
    ExecutorService tasks = Executors.newFixedThreadPool(2);
    try (IngestEngine a = engine(Map.of()); IngestEngine b = engine(Map.of())) {
      a.open(List.of(P0));
      b.open(List.of(P1));
      List<Future<?>> running = new ArrayList<>();
      for (IngestEngine engine : List.of(a, b)) {
        int partition = engine == a ? 0 : 1;
        running.add(tasks.submit(() -> {
          try {
            for (long round = 0; round < rounds; round++) {
              changes.upserts(engine, partition, round * 4, round * 4 + 3, "r" + round);
              together.arriveAndAwaitAdvance();
              engine.flush();
            }
          } finally {
            together.arriveAndDeregister(); // a task that failed lets the other go on alone
          }
          return null;
        }));
      }
      for (Future<?> task : running) {
        task.get();
      }
      a.accept(changes.upsert(0, rounds * 4, 0, "last"));
      a.flush();
    } finally {
      tasks.shutdownNow();
    }
    FileStoreTable table = table();
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.positions(table)).containsOnly(Map.entry(POSITION_0, (long) rounds * 4),
        Map.entry(POSITION_1, (long) rounds * 4 - 1));
  }

  @Test
  void aTopicThatGrewIsRecordedInATableOptionAndAKeyThatMovedPartitionsIsReplacedNotDuplicated() throws Exception {
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
    FileStoreTable table = table();
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(table.options()).containsKey("mergesink.lookup.tableScopeTopics");
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
    assertThat(PaimonTables.readRows(table())).containsExactly(row(7, "toasted"));
  }

  @Test
  void aNewColumnIsAddedAndAnIntColumnWidenedToBigintThroughPaimonsSchemaManager() throws Exception {
    DebeziumTable before = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("qty", Schema.OPTIONAL_INT32_SCHEMA).key("id").source(SourceField.TABLE).build();
    DebeziumTable after = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("qty", Schema.OPTIONAL_INT64_SCHEMA).column("email", Schema.OPTIONAL_STRING_SCHEMA).key("id")
        .source(SourceField.TABLE).build();
    IngestOptions options = options(Map.of()).schemaEvolution(SchemaEvolution.WIDEN_TYPES).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.create(before, 0, before.newRow().put("id", 1L).put("qty", 5)));
      engine.accept(ChangeRecords.create(before, 1, before.newRow().put("id", 2L).put("qty", 6)));
      engine.flush();
      engine.accept(ChangeRecords.create(after, 2, after.newRow().put("id", 2L).put("qty", 5_000_000_000L).put("email", "b@example.com")));
      engine.accept(ChangeRecords.create(after, 3, after.newRow().put("id", 3L).put("qty", 7L).put("email", "c@example.com")));
      engine.flush();
    }
    FileStoreTable table = table();
    assertThat(table.rowType().getField("qty").type()).isEqualTo(DataTypes.BIGINT());
    assertThat(table.rowType().getField("email").type()).isEqualTo(DataTypes.STRING());
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrder(Row.of(1L, 5L, null), Row.of(2L, 5_000_000_000L, "b@example.com"),
        Row.of(3L, 7L, "c@example.com"));
  }

  @Test
  void arrayMapAndStructColumnsLandAsPaimonArraysMapsAndRows() throws Exception {
    Schema address = SchemaBuilder.struct().name("pg.public.customers.address").optional()
        .field("city", Schema.OPTIONAL_STRING_SCHEMA).field("zip", Schema.OPTIONAL_INT32_SCHEMA).build();
    DebeziumTable nested = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("tags", SchemaBuilder.array(Schema.OPTIONAL_INT32_SCHEMA).optional().build())
        .column("attributes", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA).optional().build())
        .column("address", address).key("id").source(SourceField.TABLE).build();
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("tier", "gold");
    attributes.put("note", null);
    try (IngestEngine engine = new IngestEngine(options(Map.of()).build(), IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.create(nested, 0, nested.newRow().put("id", 1L).put("tags", Arrays.asList(1, null, 3))
          .put("address", new Struct(address).put("city", "Oslo").put("zip", 150))));
      engine.accept(ChangeRecords.create(nested, 1, nested.newRow().put("id", 2L).put("tags", List.of())
          .put("attributes", attributes)));
      engine.flush();
      engine.accept(ChangeRecords.create(nested, 2, nested.newRow().put("id", 1L).put("tags", List.of(4))
          .put("address", new Struct(address).put("city", "Bergen"))));
      engine.flush();
    }
    FileStoreTable table = table();
    assertThat(table.rowType().getField("tags").type()).isEqualTo(DataTypes.ARRAY(DataTypes.INT()));
    assertThat(PaimonTables.engineRows(table)).containsExactlyInAnyOrder(
        Row.of(1L, List.of(4), null, Row.of("Bergen", null)),
        Row.of(2L, List.of(), attributes, null));
  }

  /** Each task meets the new column in its own records; the one that adds it second finds it added and goes on. */
  @Test
  void twoTasksMeetingTheSameNewColumnBothLandTheirRows() throws Exception {
    DebeziumTable before = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("qty", Schema.OPTIONAL_INT32_SCHEMA).key("id").source(SourceField.TABLE).build();
    DebeziumTable after = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("qty", Schema.OPTIONAL_INT32_SCHEMA).column("email", Schema.OPTIONAL_STRING_SCHEMA).key("id")
        .source(SourceField.TABLE).build();
    IngestOptions options = options(Map.of()).schemaEvolution(SchemaEvolution.WIDEN_TYPES).build();
    try (IngestEngine a = new IngestEngine(options, IngestMetrics.NONE); IngestEngine b = new IngestEngine(options, IngestMetrics.NONE)) {
      a.open(List.of(P0));
      b.open(List.of(P1));
      a.accept(ChangeRecords.create(before, 0, before.newRow().put("id", 1L).put("qty", 5)));
      a.flush();
      b.accept(onP1(before, 0, before.newRow().put("id", 2L).put("qty", 6)));
      b.flush();
      a.accept(ChangeRecords.create(after, 1, after.newRow().put("id", 1L).put("qty", 7).put("email", "a@example.com")));
      a.flush();
      b.accept(onP1(after, 1, after.newRow().put("id", 2L).put("qty", 8).put("email", "b@example.com")));
      b.flush();
    }
    assertThat(PaimonTables.readRows(table())).containsExactlyInAnyOrder(Row.of(1L, 7, "a@example.com"), Row.of(2L, 8, "b@example.com"));
  }

  @Test
  void anAppendTableIsATableWithoutPrimaryKeyHoldingEveryChange() throws Exception {
    IngestOptions options = options(Map.of()).writeMode(WriteMode.APPEND).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 0, 5, "v");
      engine.flush();
      changes.delete(engine, 0, 6, 1);
      changes.upserts(engine, 0, 7, 8, "w");
      engine.flush();
    }
    FileStoreTable table = table();
    assertThat(table.primaryKeys()).isEmpty();
    int offset = table.rowType().getFieldIndex("_kafka_offset");
    assertThat(PaimonTables.readRows(table).stream().map(row -> row.get(offset))).as("one row per change, by its offset")
        .containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
  }

  @Test
  void orderingByAColumnOfTheRowSoftDeletesAndHistoryTablesAreRefusedNamingTheFormat() {
    assertThatThrownBy(() -> options(Map.of()).changeSemantics(new ChangeSemantics(UpsertOrder.parse("name"), DeleteMode.HARD,
        ChangeSemantics.DEFAULT_DELETED_KEYS_MAX)).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("upsert.order.by").hasMessageContaining("table.format=paimon");
    assertThatThrownBy(() -> options(Map.of()).changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.SOFT,
        ChangeSemantics.DEFAULT_DELETED_KEYS_MAX)).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delete.mode").hasMessageContaining("table.format=paimon");
    assertThatThrownBy(() -> options(Map.of()).writeMode(WriteMode.HISTORY).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("write.mode=history").hasMessageContaining("table.format=paimon");
  }

  /**
   * With {@code upsert.order.by=source.lsn} the table orders a key's rows by {@code __source_lsn}
   * ({@code sequence.field}): changes that arrive after newer ones of their key, from another
   * partition, change nothing, a delete older than the row leaves it, and an upsert older than a
   * delete does not bring the row back.
   */
  @Test
  void aKeysRowIsTheOneWithTheNewestLsnWhateverOrderItsChangesArriveIn() throws Exception {
    IngestOptions options = options(Map.of()).changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.HARD,
        ChangeSemantics.DEFAULT_DELETED_KEYS_MAX)).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0, P1));
      engine.seeksApplied();
      engine.accept(positioned(P1, 0, "c", 1, "new", 200));
      engine.accept(positioned(P1, 1, "c", 2, "kept", 210));
      engine.flush();
      engine.accept(positioned(P0, 0, "u", 1, "old", 100));
      engine.accept(positioned(P0, 1, "d", 2, null, 150));
      engine.flush();
      FileStoreTable ordered = table();
      assertThat(ordered.options()).containsEntry("sequence.field", "__source_lsn");
      assertThat(PaimonTables.readRows(ordered)).containsExactlyInAnyOrder(Row.of(1L, "new", 200L), Row.of(2L, "kept", 210L));

      engine.accept(positioned(P1, 2, "d", 1, null, 300));
      engine.flush();
      engine.accept(positioned(P0, 2, "u", 1, "older than its delete", 250));
      engine.accept(positioned(P0, 3, "u", 2, "newer", 260));
      engine.flush();
    }
    assertThat(PaimonTables.readRows(table())).containsExactly(Row.of(2L, "newer", 260L));
  }

  /**
   * A delete not newer than its key's last delete changes nothing and is not written: neither a
   * Kafka tombstone flushed after its Debezium delete (it has no position), nor an older delete
   * from a lagging partition. Written as {@code -D} rows they would lose Paimon's merge to the row
   * the writer's lookup still holds from before its own compaction deleted it, and that compaction
   * would write the row again.
   */
  @Test
  void aDeleteNotNewerThanItsKeysLastDeleteDoesNotBringTheRowBack() throws Exception {
    IngestOptions options = options(Map.of()).tableNameFormat(TABLE).changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.lsn"),
        DeleteMode.HARD, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX)).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0, P1));
      engine.seeksApplied();
      engine.accept(positioned(P1, 0, "c", 1, "tombstoned", 100));
      engine.accept(positioned(P1, 1, "c", 2, "deleted twice", 110));
      engine.accept(positioned(P1, 2, "c", 3, "kept", 120));
      engine.flush();
      engine.accept(positioned(P1, 3, "d", 1, null, 200));
      engine.accept(positioned(P1, 4, "d", 2, null, 210));
      engine.flush();
      engine.accept(ChangeRecords.tombstone(1, 5, 1));
      engine.accept(positioned(P0, 0, "d", 2, null, 105));
      engine.flush();
    }
    assertThat(PaimonTables.readRows(table())).containsExactly(Row.of(3L, "kept", 120L));
  }

  /**
   * Under {@code merge-engine=partial-update} an unchanged TOAST value (Debezium's placeholder) is a
   * null column, which Paimon does not write over: the row keeps the value, and the sink reads no
   * row to fill it. Deletes remove the row ({@code partial-update.remove-record-on-delete}).
   */
  @Test
  void underPartialUpdateAnUpdateWithoutItsToastColumnKeepsTheOldValue() throws Exception {
    try (IngestEngine engine = engine(Map.of("merge-engine", "partial-update"))) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "toasted"));
      engine.accept(ChangeRecords.upsert(0, 1, TABLE, 2, "deleted"));
      engine.flush();
      engine.accept(ChangeRecords.upsert(0, 2, TABLE, 1, "__debezium_unavailable_value"));
      engine.accept(ChangeRecords.delete(0, 3, TABLE, 2));
      engine.flush();
    }
    FileStoreTable table = table();
    assertThat(table.options()).containsEntry("merge-engine", "partial-update")
        .containsEntry("partial-update.remove-record-on-delete", "true");
    assertThat(PaimonTables.readRows(table)).containsExactly(row(1, "toasted"));
  }

  /**
   * With {@code changelog-producer=lookup} each commit's compaction writes the changes it made as
   * Paimon's row kinds; replayed in snapshot order they rebuild the table its reader reads.
   */
  @Test
  void theLookupChangelogReplayedRebuildsTheTable() throws Exception {
    try (IngestEngine engine = engine(Map.of("changelog-producer", "lookup"))) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 0, 3, "v");
      engine.flush();
      changes.upserts(engine, 0, 4, 5, "w");
      changes.delete(engine, 0, 6, 2);
      engine.flush();
      changes.upserts(engine, 0, 7, 9, "x");
      changes.delete(engine, 0, 10, 0);
      engine.flush();
    }
    FileStoreTable table = table();
    List<PaimonTables.Change> changelog = PaimonTables.changelog(table);
    Map<Object, Row> rebuilt = new HashMap<>();
    for (PaimonTables.Change change : changelog) {
      Object key = change.row().get(0);
      if (change.kind().isAdd()) {
        rebuilt.put(key, change.row());
      } else {
        assertThat(rebuilt.remove(key)).as("a retraction takes back the row held: %s", change).isEqualTo(change.row());
      }
    }
    assertThat(changelog.stream().map(PaimonTables.Change::kind)).contains(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER,
        RowKind.DELETE);
    assertThat(rebuilt.values()).containsExactlyInAnyOrderElementsOf(PaimonTables.readRows(table))
        .containsExactlyInAnyOrderElementsOf(changes.rows());
  }

  /** A change {@code op} ({@code c}, {@code u}, {@code d}) of {@code id} at PostgreSQL position {@code lsn}, at {@code offset} of {@code partition}. */
  private static KafkaRecord positioned(KafkaPartition partition, long offset, String op, long id, String name, long lsn) {
    Struct row = POSITIONED.newRow().put("id", id).put("name", name);
    Struct source = POSITIONED.source(lsn).put("lsn", lsn);
    Struct envelope = POSITIONED.envelope(op, op.equals("d") ? row : null, op.equals("d") ? null : row, source, lsn);
    return new KafkaRecord(partition, offset, ChangeRecords.TOPIC, lsn, POSITIONED.keySchema(), POSITIONED.key(id),
        POSITIONED.envelopeSchema(), envelope, RecordHeaders.NONE);
  }

  /** The create of {@code row} at {@code offset} of partition 1. */
  private static KafkaRecord onP1(DebeziumTable events, long offset, Struct row) {
    return new KafkaRecord(P1, offset, ChangeRecords.TOPIC, offset, events.keySchema(), events.key(row.get("id")),
        events.envelopeSchema(), events.create(row, offset), RecordHeaders.NONE);
  }

  private FileStoreTable table() {
    return PaimonTables.load(dir.toString(), "default", TABLE);
  }

  /** One bucket (one LSM tree to compact per commit) unless the table properties say otherwise. */
  private IngestOptions.Builder options(Map<String, String> tableProperties) {
    return IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.PAIMON).tableNameFormat("${source.table}")
        .commitInterval(Duration.ZERO).tableProperties(tableProperties).paimon(new PaimonOptions(Map.of(), "default", 1));
  }

  private IngestEngine engine(Map<String, String> tableProperties) {
    return new IngestEngine(options(tableProperties).build(), new IngestMetrics() {
      @Override
      public void fenced() {
        fenced.incrementAndGet();
      }
    });
  }
}
