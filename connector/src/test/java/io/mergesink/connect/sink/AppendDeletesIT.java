package io.mergesink.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deletes in append (audit) tables of a source table with NOT NULL columns, as Debezium's PostgreSQL
 * connector sends them (docs/design.md, "Append tables"): with {@code REPLICA IDENTITY FULL} the
 * delete's row is its full {@code before} image; with the default replica identity Debezium fills
 * the NOT NULL columns of {@code before} with '' and 0, so {@code append.delete.image=key} writes
 * the key only; a delete without {@code before} writes the key only. A table an older version made
 * with NOT NULL columns is relaxed to nullable in a metadata commit. Every event lands as a row.
 */
class AppendDeletesIT {
  private static final String FULL = "pg.public.items_full";
  private static final String DEFAULT_IDENTITY = "pg.public.items_default";
  private static final String NO_BEFORE = "pg.public.items_nobefore";
  private static final String EXISTING = "pg.public.items_existing";
  private static final Schema KEY = SchemaBuilder.struct().name("pg.public.items.Key").field("id", Schema.INT32_SCHEMA).build();
  private static final Schema ROW = SchemaBuilder.struct().name("pg.public.items.Value").optional()
      .field("id", Schema.INT32_SCHEMA)
      .field("name", Schema.STRING_SCHEMA)
      .field("qty", Schema.INT32_SCHEMA)
      .field("note", Schema.OPTIONAL_STRING_SCHEMA)
      .build();
  private static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
      .field("ts_ms", Schema.INT64_SCHEMA).field("db", Schema.STRING_SCHEMA).field("schema", Schema.STRING_SCHEMA)
      .field("table", Schema.STRING_SCHEMA).build();
  private static final Schema ENVELOPE = SchemaBuilder.struct().name("pg.public.items.Envelope")
      .field("before", ROW).field("after", ROW).field("source", SOURCE).field("op", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).build();
  private static final long TS = 1_767_225_600_000L;

  @TempDir Path tables;
  @TempDir Path keyTables;
  private LocalConnect connect;

  @BeforeEach
  void startCluster() {
    connect = LocalConnect.start(1);
    for (String topic : List.of(FULL, DEFAULT_IDENTITY, NO_BEFORE, EXISTING)) {
      connect.createTopic(topic, 1);
    }
  }

  @AfterEach
  void stopCluster() {
    connect.close();
  }

  @Test
  void deletesOfTablesWithNotNullColumnsLandAsRows() throws Exception {
    // a table an older version created from the source's schema: NOT NULL columns as in the source
    DeltaTable existing = DeltaTable.forPath(new LocalStorage(), tables.resolve(EXISTING).toString());
    existing.createIfAbsent(TableSpec.append(oldAppendSchema(), Map.of()));

    List<Row> full = new ArrayList<>();
    List<Row> defaultIdentity = new ArrayList<>();
    List<Row> noBefore = new ArrayList<>();
    List<Row> existingRows = new ArrayList<>();
    for (String topic : List.of(FULL, DEFAULT_IDENTITY, NO_BEFORE, EXISTING)) {
      List<Row> expected = switch (topic) {
        case FULL -> full;
        case DEFAULT_IDENTITY -> defaultIdentity;
        case NO_BEFORE -> noBefore;
        default -> existingRows;
      };
      expected.add(send(topic, "c", null, row(1, "ada", 3, "x")));
      expected.add(send(topic, "c", null, row(2, "bob", 5, null)));
      expected.add(send(topic, "u", row(1, "ada", 3, "x"), row(1, "ada", 4, "y")));
    }
    // REPLICA IDENTITY FULL: the row as it was
    long offset = produce(FULL, "d", row(2, "bob", 5, null), null);
    full.add(audit(2, "bob", 5, null, "d", FULL, offset));
    // default replica identity: Debezium fills the NOT NULL columns of before with '' and 0
    offset = produce(DEFAULT_IDENTITY, "d", row(2, "", 0, null), null);
    defaultIdentity.add(audit(2, null, null, null, "d", DEFAULT_IDENTITY, offset));
    offset = produce(NO_BEFORE, "d", null, null);
    noBefore.add(audit(2, null, null, null, "d", NO_BEFORE, offset));
    offset = produce(EXISTING, "d", null, null);
    existingRows.add(audit(2, null, null, null, "d", EXISTING, offset));

    connect.startConnector("audit", sinkConfig(tables, List.of(FULL, NO_BEFORE, EXISTING), "before"), 1);
    connect.startConnector("audit-keys", sinkConfig(keyTables, List.of(DEFAULT_IDENTITY), "key"), 1);
    awaitCaughtUp("audit", tables, FULL, NO_BEFORE, EXISTING);
    awaitCaughtUp("audit-keys", keyTables, DEFAULT_IDENTITY);

    assertThat(KernelTables.readRows(table(tables, FULL))).containsExactlyInAnyOrderElementsOf(full);
    assertThat(KernelTables.readRows(table(keyTables, DEFAULT_IDENTITY))).containsExactlyInAnyOrderElementsOf(defaultIdentity);
    assertThat(KernelTables.readRows(table(tables, NO_BEFORE))).containsExactlyInAnyOrderElementsOf(noBefore);
    assertThat(KernelTables.readRows(table(tables, EXISTING))).containsExactlyInAnyOrderElementsOf(existingRows);
    for (String path : List.of(table(tables, FULL), table(tables, NO_BEFORE), table(tables, EXISTING), table(keyTables, DEFAULT_IDENTITY))) {
      StructType schema = KernelTables.schema(path);
      assertThat(schema.field("id").orElseThrow().nullable()).as(path + ": the key stays NOT NULL").isFalse();
      assertThat(schema.field("name").orElseThrow().nullable()).as(path + ": non-key columns are nullable").isTrue();
      assertThat(schema.field("qty").orElseThrow().nullable()).as(path + ": non-key columns are nullable").isTrue();
    }
  }

  /** Sends an upsert and returns its audit row. */
  private Row send(String topic, String op, Struct before, Struct after) {
    long offset = produce(topic, op, before, after);
    return audit(after.getInt32("id"), after.getString("name"), after.getInt32("qty"), after.getString("note"), op, topic, offset);
  }

  /** Sends a change event of key {@code after.id} (of key 2 for a delete) and returns its offset. */
  private long produce(String topic, String op, Struct before, Struct after) {
    Struct source = new Struct(SOURCE).put("ts_ms", TS).put("db", "inventory").put("schema", "public").put("table", "items");
    Struct envelope = new Struct(ENVELOPE).put("before", before).put("after", after).put("source", source).put("op", op).put("ts_ms", TS);
    int id = after == null ? 2 : after.getInt32("id");
    return connect.produce(topic, 0, KEY, new Struct(KEY).put("id", id), ENVELOPE, envelope);
  }

  private static Struct row(int id, String name, int qty, String note) {
    return new Struct(ROW).put("id", id).put("name", name).put("qty", qty).put("note", note);
  }

  private static Row audit(int id, String name, Integer qty, String note, String op, String topic, long offset) {
    return Row.of(id, name, qty, note, op, TS, topic, 0, offset);
  }

  /** The schema the connector gave new append tables before deletes could land: the source's NOT NULL columns kept. */
  private static StructType oldAppendSchema() {
    return StructType.of(
        new StructField("id", PrimitiveType.INTEGER, false), new StructField("name", PrimitiveType.STRING, false),
        new StructField("qty", PrimitiveType.INTEGER, false), new StructField("note", PrimitiveType.STRING, true),
        new StructField("_op", PrimitiveType.STRING, true), new StructField("_ts_ms", PrimitiveType.LONG, true),
        new StructField("_kafka_topic", PrimitiveType.STRING, false), new StructField("_kafka_partition", PrimitiveType.INTEGER, false),
        new StructField("_kafka_offset", PrimitiveType.LONG, false));
  }

  private Map<String, String> sinkConfig(Path root, List<String> topics, String deleteImage) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("topics", String.join(",", topics));
    config.put("table.root", root.toString());
    config.put("write.mode", "append");
    config.put("append.delete.image", deleteImage);
    config.put("commit.interval.ms", "500");
    return config;
  }

  private void awaitCaughtUp(String connector, Path root, String... topics) {
    for (String topic : topics) {
      long end = connect.endOffsets(topic).values().iterator().next();
      Await.until("table " + topic + " to hold offset " + (end - 1), MergeSinkIT.CATCH_UP, () -> {
        failIfATaskFailed(connector);
        return root.resolve(topic).resolve("_delta_log").toFile().exists()
            && KernelTables.txnVersion(table(root, topic), connector + ":" + topic + ":0").orElse(-1L) == end - 1;
      });
    }
  }

  private void failIfATaskFailed(String connector) {
    connect.status(connector).tasks().stream().filter(task -> "FAILED".equals(task.state())).findFirst().ifPresent(task -> {
      throw new AssertionError("task " + task.id() + " of " + connector + " failed: " + task.trace());
    });
  }

  private static String table(Path root, String topic) {
    return root.resolve(topic).toString();
  }
}
