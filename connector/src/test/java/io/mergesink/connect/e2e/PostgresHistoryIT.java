package io.mergesink.connect.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.connect.testing.SourceDatabase;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.localpg.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * History tables ({@code write.mode=history}) end to end: a PostgreSQL table changed through
 * Debezium (pgoutput) lands in two history tables, one per merge strategy, written by two sink
 * connectors from the same topic. Updates (one leaving a TOASTed column alone), a delete, a
 * re-insert of the deleted key and a delete for good; PostgreSQL is read after every statement,
 * so every key's expected versions are the states PostgreSQL had. The sink's current rows must be
 * PostgreSQL's rows, and each key's versions its states in order, each closed where the next
 * began (or where the key was deleted), read with Delta Kernel.
 */
class PostgresHistoryIT {
  private static final String TABLE = "members";
  private static final String TOPIC = "pg.public." + TABLE;
  private static final String INCOMPRESSIBLE = "(SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 400))";
  /** Columns of PostgreSQL's table; the history table has them, then __valid_from, __valid_to, __current. */
  private static final int COLUMNS = 4;

  @TempDir Path tables;

  @Test
  void currentRowsArePostgresRowsAndEveryKeyKeepsEveryStateItHad() {
    assertThat(LocalPostgres.available()).as("PostgreSQL server binaries under /usr/lib/postgresql/*/bin").isTrue();
    try (LocalPostgres postgres = LocalPostgres.start(SourceDatabase.NAME); LocalConnect connect = LocalConnect.start(1)) {
      // seq orders the states of a key: every insert and update takes the next value
      postgres.execute("CREATE SEQUENCE states",
          "CREATE TABLE " + TABLE + " (id int PRIMARY KEY, name text, seq bigint NOT NULL DEFAULT nextval('states'), notes text)",
          "INSERT INTO " + TABLE + " (id, name, notes) VALUES (1, 'ada', " + INCOMPRESSIBLE + "), (2, 'bob', NULL), (3, 'cy', 'short')");
      States states = new States();
      states.record(postgres);
      Map<String, String> source = EndToEnd.configFile("debezium-postgres-source.json");
      source.putAll(postgres.debeziumConnectionConfig());
      connect.startConnector("pg-source", source, 1);
      List<String> changes = List.of(
          "UPDATE " + TABLE + " SET name = 'ada l', seq = nextval('states') WHERE id = 1", // notes TOASTed, left alone
          "UPDATE " + TABLE + " SET name = 'bob b', seq = nextval('states') WHERE id = 2",
          "DELETE FROM " + TABLE + " WHERE id = 2",
          "INSERT INTO " + TABLE + " (id, name, notes) VALUES (2, 'bob again', 'back')",
          "INSERT INTO " + TABLE + " (id, name) VALUES (4, 'dee')",
          "UPDATE " + TABLE + " SET name = 'ada lovelace', seq = nextval('states') WHERE id = 1",
          "UPDATE " + TABLE + " SET notes = 'now short', seq = nextval('states') WHERE id = 4",
          "DELETE FROM " + TABLE + " WHERE id = 3");
      for (String change : changes) {
        postgres.execute(change);
        states.record(postgres);
      }
      // 3 snapshot reads, the changes, and a tombstone after each of the 2 deletes
      connect.readRecords(TOPIC, 3 + changes.size() + 2);

      connect.startConnector("history-dv", sink("deletion-vectors"), 1);
      connect.startConnector("history-cow", sink("copy-on-write"), 1);
      awaitCaughtUp(connect, "history-dv");
      awaitCaughtUp(connect, "history-cow");

      List<Row> postgresRows = PostgresTable.read(postgres, TABLE).rows();
      SoftAssertions softly = new SoftAssertions();
      for (String strategy : List.of("deletion-vectors", "copy-on-write")) {
        List<Row> rows = KernelTables.readRows(tablePath(strategy));
        softly.assertThat(rows.stream().filter(row -> Boolean.TRUE.equals(row.get(COLUMNS + 2))).map(PostgresHistoryIT::columns).toList())
            .as("current rows of the %s table", strategy).containsExactlyInAnyOrderElementsOf(postgresRows);
        Map<Object, List<Row>> versions = new LinkedHashMap<>();
        rows.stream().sorted(Comparator.comparingLong(row -> (Long) row.get(2)))
            .forEach(row -> versions.computeIfAbsent(row.get(0), id -> new ArrayList<>()).add(row));
        softly.assertThat(versions.keySet()).as("keys of the %s table", strategy).containsExactlyInAnyOrderElementsOf(states.byKey.keySet());
        states.byKey.forEach((id, expected) -> {
          List<Row> actual = versions.getOrDefault(id, List.of());
          softly.assertThat(actual.stream().map(PostgresHistoryIT::columns).toList()).as("versions of id %s in the %s table", id, strategy)
              .containsExactlyElementsOf(expected);
          for (int i = 0; i + 1 < actual.size(); i++) {
            Row version = actual.get(i);
            Row next = actual.get(i + 1);
            softly.assertThat(version.get(COLUMNS + 2)).as("version %d of id %s is closed", i, id).isEqualTo(false);
            softly.assertThat((Long) version.get(COLUMNS + 1)).as("version %d of id %s ends", i, id).isNotNull()
                .isGreaterThanOrEqualTo((Long) version.get(COLUMNS));
            if (states.deletedAfter.contains(expected.get(i))) {
              softly.assertThat((Long) next.get(COLUMNS)).as("id %s re-inserted after its delete", id)
                  .isGreaterThanOrEqualTo((Long) version.get(COLUMNS + 1));
            } else {
              softly.assertThat(next.get(COLUMNS)).as("version %d of id %s begins where %d ended", i + 1, id, i)
                  .isEqualTo(version.get(COLUMNS + 1));
            }
          }
          if (!actual.isEmpty()) {
            Row last = actual.get(actual.size() - 1);
            boolean exists = postgresRows.stream().anyMatch(row -> row.get(0).equals(id));
            softly.assertThat(last.get(COLUMNS + 2)).as("the last version of id %s is current iff PostgreSQL has it", id).isEqualTo(exists);
            softly.assertThat(last.get(COLUMNS + 1) == null).as("the last version of id %s is open iff current", id).isEqualTo(exists);
          }
        });
      }
      softly.assertAll();
    }
  }

  /** Every state each key of PostgreSQL's table had, in order, and the states a delete ended. */
  private static final class States {
    final Map<Object, List<Row>> byKey = new LinkedHashMap<>();
    final Set<Row> deletedAfter = new HashSet<>();
    private Map<Object, Row> present = new HashMap<>();

    void record(LocalPostgres postgres) {
      Map<Object, Row> now = new HashMap<>();
      for (Row row : PostgresTable.read(postgres, TABLE).rows()) {
        now.put(row.get(0), row);
        List<Row> states = byKey.computeIfAbsent(row.get(0), id -> new ArrayList<>());
        if (states.isEmpty() || !states.get(states.size() - 1).equals(row)) {
          states.add(row);
        }
      }
      present.forEach((id, row) -> {
        if (!now.containsKey(id)) {
          deletedAfter.add(row);
        }
      });
      present = now;
    }
  }

  private static Row columns(Row row) {
    return Row.of(row.get(0), row.get(1), row.get(2), row.get(3));
  }

  private Map<String, String> sink(String strategy) {
    Map<String, String> config = EndToEnd.configFile("mergesink-upsert.json");
    config.remove("topics.regex");
    config.put("topics", TOPIC);
    config.put("write.mode", "history");
    config.put("merge.strategy", strategy);
    config.put("table.root", tables.resolve(strategy).toString());
    config.put("errors.tolerance", "none");
    config.put("commit.interval.ms", "500");
    return config;
  }

  private void awaitCaughtUp(LocalConnect connect, String sink) {
    String strategy = sink.equals("history-dv") ? "deletion-vectors" : "copy-on-write";
    long last = connect.endOffsets(TOPIC).get(new TopicPartition(TOPIC, 0)) - 1;
    Await.until("txn version " + last + " in " + tablePath(strategy), EndToEnd.CATCH_UP, () -> {
      connect.status(sink).tasks().stream().filter(task -> "FAILED".equals(task.state())).findFirst().ifPresent(task -> {
        throw new AssertionError(sink + " task failed: " + task.trace());
      });
      return Files.isDirectory(Path.of(tablePath(strategy), "_delta_log"))
          ? KernelTables.txnVersion(tablePath(strategy), sink + ":" + TOPIC + ":0") : Optional.<Long>empty();
    }, Optional.of(last)::equals);
  }

  /** Where the deploy file's {@code table.name.format=${source.schema}/${source.table}} puts the table. */
  private String tablePath(String strategy) {
    return tables.resolve(strategy).resolve("public").resolve(TABLE).toString();
  }
}
