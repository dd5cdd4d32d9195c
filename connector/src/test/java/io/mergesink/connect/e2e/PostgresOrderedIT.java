package io.mergesink.connect.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;

/**
 * {@code upsert.order.by=source.lsn} end to end, PostgreSQL → Debezium → Kafka → MergeSink → Delta:
 * after the snapshot and streamed inserts, updates and deletes, a second Debezium connector
 * re-snapshots the table into the same topic ({@code snapshot.mode=initial_only}). Its snapshot
 * reads the table as of its start, but a large table it reads first holds its rows of {@code items}
 * back while the first connector streams newer changes: stale snapshot rows arrive after them (the
 * test checks that they do), and rows deleted meanwhile come back in the snapshot. Four sinks take
 * the one stream, each into a table of its own. Each Delta table, read by Delta Kernel, must equal
 * PostgreSQL's: with hard deletes, and with soft deletes (its rows not marked deleted; those marked
 * are the keys PostgreSQL deleted), under both strategies. Written as a history table ({@code write.mode=history}), its current rows must equal PostgreSQL's, and
 * every key's versions, in LSN order and contiguous, the changes of the key Kafka holds, each once
 * (the first delivered of an LSN), sorted by LSN: the stale snapshot rows land where their LSN puts
 * them, not as the newest versions.
 */
class PostgresOrderedIT {
  private static final String ITEMS = "items";
  private static final String FILLER = "a_filler";
  private static final int SNAPSHOT_ROWS = 40;
  private static final int FILLER_ROWS = 300_000;
  private static final String RESNAPSHOT = "pg-resnapshot";

  @TempDir Path tables;

  @Test
  void aReSnapshotDeliveredAfterNewerChangesLeavesEveryTableEqualToPostgres() {
    List<Variant> variants = List.of(new Variant("deletion-vectors", "hard"), new Variant("copy-on-write", "soft"),
        new Variant("deletion-vectors", "history"), new Variant("copy-on-write", "history"));
    try (EndToEnd e2e = EndToEnd.start(tables)) {
      e2e.postgres().execute("CREATE TABLE items (id bigint PRIMARY KEY, name text, qty integer)",
          "INSERT INTO items SELECT i, 'initial ' || i, i FROM generate_series(1, " + SNAPSHOT_ROWS + ") i",
          "CREATE TABLE a_filler (id bigint PRIMARY KEY, pad text)",
          "INSERT INTO a_filler SELECT i, repeat('x', 100) FROM generate_series(1, " + FILLER_ROWS + ") i");
      Map<String, String> source = sourceConfig(e2e);
      source.put("table.include.list", "public." + ITEMS);
      e2e.connect().startConnector(EndToEnd.SOURCE, source, 1);
      Await.until(SNAPSHOT_ROWS + " snapshot events", LocalConnect.DEFAULT_TIMEOUT,
          () -> topicCount(e2e, EndToEnd.topic(ITEMS)), count -> count >= SNAPSHOT_ROWS);
      for (Variant variant : variants) {
        e2e.startSink(variant.sink(), variant.root(tables), Map.of("upsert.order.by", "source.lsn",
            "topics.regex", "pg\\.public\\.items", "merge.strategy", variant.strategy(),
            "delete.mode", variant.history() ? "hard" : variant.deleteMode(), "write.mode", variant.history() ? "history" : "upsert"));
      }

      e2e.postgres().execute("UPDATE items SET name = 'first update', qty = qty + 100 WHERE id % 3 = 0",
          "DELETE FROM items WHERE id % 7 = 0",
          "INSERT INTO items SELECT i, 'streamed ' || i, i FROM generate_series(41, 50) i");
      long beforeResnapshot = e2e.postgres().queryLong("SELECT count(*) FROM items");

      Map<String, String> resnapshot = sourceConfig(e2e);
      resnapshot.putAll(Map.of("snapshot.mode", "initial_only", "slot.name", "mergesink_resnap", "publication.name",
          "mergesink_resnap", "table.include.list", "public." + FILLER + ",public." + ITEMS,
          // a server name of its own (Debezium's metrics are named by it), its records routed into the first one's topics
          "topic.prefix", "resnap", "transforms", "route", "transforms.route.type", "org.apache.kafka.connect.transforms.RegexRouter",
          "transforms.route.regex", "resnap\\.(.*)", "transforms.route.replacement", "pg.$1"));
      e2e.connect().startConnector(RESNAPSHOT, resnapshot, 1);
      Await.until("the re-snapshot under way", LocalConnect.DEFAULT_TIMEOUT, () -> topicCount(e2e, EndToEnd.topic(FILLER)),
          count -> count > 0);
      // newer than the re-snapshot, which reads the table as it was when it began
      e2e.postgres().execute("UPDATE items SET name = 'after the re-snapshot began', qty = -qty WHERE id % 2 = 0",
          "DELETE FROM items WHERE id % 5 = 0",
          "INSERT INTO items SELECT i, 'late ' || i, i FROM generate_series(51, 55) i");

      Await.until("the re-snapshot of items in Kafka", EndToEnd.CATCH_UP, () -> snapshotRows(e2e),
          rows -> rows == SNAPSHOT_ROWS + beforeResnapshot);
      for (Variant variant : variants) {
        e2e.awaitCaughtUp(variant.sink(), variant.root(tables), ITEMS);
      }

      List<Struct[]> records = e2e.records(ITEMS, (int) topicCount(e2e, EndToEnd.topic(ITEMS)));
      assertThat(staleAfterNewer(records)).as("re-snapshot rows Kafka delivers after a newer change of their key").isPositive();
      Map<Long, List<Object>> postgres = postgresRows(e2e);
      for (Variant variant : variants) {
        String path = e2e.tablePath(variant.root(tables), ITEMS);
        if (variant.history()) {
          assertHistory(variant, path, records, postgres);
        } else {
          assertCurrentRows(variant, path, records, postgres);
        }
      }
      assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
    }
  }

  /** One sink of the stream: its merge strategy and delete mode ({@code history} for a history table). */
  private record Variant(String strategy, String deleteMode) {
    boolean history() {
      return deleteMode.equals("history");
    }

    String sink() {
      return "mergesink-" + strategy + "-" + deleteMode;
    }

    Path root(Path tables) {
      return tables.resolve(strategy + "-" + deleteMode);
    }

    @Override
    public String toString() {
      return strategy + ", delete.mode=" + deleteMode;
    }
  }

  /**
   * The table's rows (those not marked deleted) are PostgreSQL's; with soft deletes the rows marked
   * deleted are the keys PostgreSQL deleted.
   */
  private static void assertCurrentRows(Variant variant, String path, List<Struct[]> records, Map<Long, List<Object>> postgres) {
    boolean soft = variant.deleteMode().equals("soft");
    assertThat(KernelTables.schema(path).fieldNames()).as("%s: columns", variant).containsExactlyElementsOf(soft
        ? List.of("id", "name", "qty", "__source_lsn", "__deleted", "__deleted_at") : List.of("id", "name", "qty", "__source_lsn"));
    Map<Long, List<Object>> delta = deltaRows(path, false);
    assertThat(delta).as("%s: Delta table (rows not marked deleted) vs PostgreSQL; the records of the keys that differ: %s",
        variant, history(records, delta, postgres)).isEqualTo(postgres);
    if (soft) {
      List<Long> deleted = records.stream().filter(record -> record[1] != null && "d".equals(record[1].getString("op")))
          .map(record -> record[0].getInt64("id")).distinct().toList();
      assertThat(deleted).as("keys PostgreSQL deleted").isNotEmpty().noneMatch(postgres::containsKey);
      assertThat(deltaRows(path, true).keySet()).as("%s: rows marked deleted", variant).containsExactlyInAnyOrderElementsOf(deleted);
    }
  }

  /**
   * The history table's current rows are PostgreSQL's rows; each key's versions, sorted by
   * {@code __source_lsn}, are contiguous (each ends at the LSN the next begins at, or at a delete
   * before it; only the last may be current) and are the key's changes in Kafka, the first delivered
   * of each LSN, sorted by LSN: (name, qty, LSN, the LSN that ended it).
   */
  private static void assertHistory(Variant variant, String path, List<Struct[]> records, Map<Long, List<Object>> postgres) {
    StructType schema = KernelTables.schema(path);
    assertThat(schema.fieldNames()).as("%s: columns", variant).containsExactly("id", "name", "qty", "__valid_from", "__valid_to", "__current", "__source_lsn",
        "__valid_to_source_lsn");
    Map<Long, List<List<Object>>> actual = new TreeMap<>();
    Map<Long, List<Object>> current = new TreeMap<>();
    List<Row> rows = new ArrayList<>(KernelTables.readRows(path));
    rows.sort(java.util.Comparator.comparingLong(row -> (Long) row.get(6)));
    for (Row row : rows) {
      if (Boolean.TRUE.equals(row.get(5))) {
        assertThat(current.put((Long) row.get(0), values(row.get(1), row.get(2)))).as("one current row of key %s", row.get(0)).isNull();
      }
      actual.computeIfAbsent((Long) row.get(0), id -> new ArrayList<>())
          .add(List.of(row.get(1), row.get(2), row.get(6), String.valueOf(row.get(7)), row.get(5)));
    }
    assertThat(current).as("%s: current rows vs PostgreSQL", variant).isEqualTo(postgres);
    Map<Long, List<Struct[]>> changes = new TreeMap<>();
    Map<Long, java.util.Set<Long>> seen = new HashMap<>();
    for (Struct[] record : records) {
      if (record[1] == null) {
        continue; // a tombstone: no LSN, changes nothing
      }
      long id = record[0].getInt64("id");
      if (seen.computeIfAbsent(id, key -> new java.util.HashSet<>()).add(record[1].getStruct("source").getInt64("lsn"))) {
        changes.computeIfAbsent(id, key -> new ArrayList<>()).add(record);
      }
    }
    Map<Long, List<List<Object>>> expected = new TreeMap<>();
    changes.forEach((id, list) -> {
      list.sort(java.util.Comparator.comparingLong(record -> record[1].getStruct("source").getInt64("lsn")));
      List<List<Object>> versions = new ArrayList<>();
      for (Struct[] record : list) {
        long lsn = record[1].getStruct("source").getInt64("lsn");
        int last = versions.size() - 1;
        if (last >= 0 && Boolean.TRUE.equals(versions.get(last).get(4))) {
          List<Object> open = versions.get(last);
          versions.set(last, List.of(open.get(0), open.get(1), open.get(2), String.valueOf(lsn), false));
        }
        Struct after = record[1].getStruct("after");
        if (after != null) {
          versions.add(java.util.Arrays.asList(after.getString("name"), after.getInt32("qty"), lsn, "null", true));
        }
      }
      if (!versions.isEmpty()) {
        expected.put(id, versions);
      }
    });
    assertThat(actual).as("%s: every key's versions in LSN order vs its changes in Kafka, sorted by LSN", variant).isEqualTo(expected);
  }

  private static Map<String, String> sourceConfig(EndToEnd e2e) {
    Map<String, String> config = new HashMap<>(EndToEnd.configFile("debezium-postgres-source.json"));
    config.putAll(e2e.postgres().debeziumConnectionConfig());
    return config;
  }

  private static long topicCount(EndToEnd e2e, String topic) {
    try {
      return e2e.connect().recordCount(topic);
    } catch (RuntimeException e) {
      return -1; // the topic does not exist yet
    }
  }

  /** Snapshot records (op r) in the items topic: the first connector's and the re-snapshot's. */
  private static long snapshotRows(EndToEnd e2e) {
    return e2e.records(ITEMS, (int) topicCount(e2e, EndToEnd.topic(ITEMS))).stream()
        .filter(record -> record[1] != null && "r".equals(record[1].getString("op"))).count();
  }

  /** Snapshot records that come after a change of their key with a higher LSN. */
  private static long staleAfterNewer(List<Struct[]> records) {
    Map<Long, Long> newestLsn = new HashMap<>();
    long stale = 0;
    for (Struct[] record : records) {
      if (record[1] == null) {
        continue;
      }
      long id = record[0].getInt64("id");
      long lsn = record[1].getStruct("source").getInt64("lsn");
      if ("r".equals(record[1].getString("op")) && newestLsn.getOrDefault(id, Long.MIN_VALUE) > lsn) {
        stale++;
      }
      newestLsn.merge(id, lsn, Math::max);
    }
    return stale;
  }

  /** For each key whose rows differ, its records in Kafka order: op, source.lsn, name. */
  private static Map<Long, List<String>> history(List<Struct[]> records, Map<Long, List<Object>> delta,
      Map<Long, List<Object>> postgres) {
    Map<Long, List<String>> history = new TreeMap<>();
    for (Struct[] record : records) {
      long id = record[0].getInt64("id");
      if (java.util.Objects.equals(delta.get(id), postgres.get(id))) {
        continue;
      }
      String change = record[1] == null ? "tombstone" : record[1].getString("op") + "@" + record[1].getStruct("source").getInt64("lsn")
          + (record[1].getStruct("after") == null ? "" : " " + record[1].getStruct("after").getString("name"));
      history.computeIfAbsent(id, key -> new ArrayList<>()).add(change);
    }
    return history;
  }

  /** id → [name, qty] of the Delta table's rows marked deleted ({@code __deleted}), or of the others. */
  private static Map<Long, List<Object>> deltaRows(String path, boolean markedDeleted) {
    int deleted = KernelTables.schema(path).indexOf("__deleted");
    Map<Long, List<Object>> rows = new TreeMap<>();
    Map<Long, Row> all = new TreeMap<>();
    for (Row row : KernelTables.readRows(path)) {
      assertThat(all.put((Long) row.get(0), row)).as("one row of key %s", row.get(0)).isNull();
      if (markedDeleted == (deleted >= 0 && Boolean.TRUE.equals(row.get(deleted)))) {
        rows.put((Long) row.get(0), values(row.get(1), row.get(2)));
      }
    }
    return rows;
  }

  private static Map<Long, List<Object>> postgresRows(EndToEnd e2e) {
    Map<Long, List<Object>> rows = new TreeMap<>();
    for (Row row : PostgresTable.read(e2e.postgres(), ITEMS).rows()) {
      rows.put((Long) row.get(0), values(row.get(1), row.get(2)));
    }
    return rows;
  }

  private static List<Object> values(Object name, Object qty) {
    List<Object> values = new ArrayList<>();
    values.add(name);
    values.add(qty);
    return values;
  }
}
