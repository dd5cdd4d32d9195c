package io.mergesink.connect.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.connect.testing.SourceDatabase;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.StructType;
import io.mergesink.localpg.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Append (audit) tables end to end: PostgreSQL tables with NOT NULL columns, one with
 * {@code REPLICA IDENTITY FULL} and one with the default identity, through Debezium (pgoutput) into
 * MergeSink with {@code config/mergesink-audit.json}. Every event lands as a row, deletes included:
 * with the full identity the delete's row is the row as it was; with the default identity (whose
 * {@code before} Debezium fills with '' and 0) {@code append.delete.image=key} writes its key only.
 * (The deletes' tombstones carry no source block to route by with this file's table name format;
 * they are skipped, the delete events before them are the rows.)
 */
class PostgresAppendIT {
  private static final String FULL = "items_full";
  private static final String DEFAULT_IDENTITY = "items_default";

  @TempDir Path tables;

  @Test
  void everyChangeOfTablesWithNotNullColumnsLandsAsARow() {
    assertThat(LocalPostgres.available()).as("PostgreSQL server binaries under /usr/lib/postgresql/*/bin").isTrue();
    try (LocalPostgres postgres = LocalPostgres.start(SourceDatabase.NAME); LocalConnect connect = LocalConnect.start(1)) {
      for (String table : List.of(FULL, DEFAULT_IDENTITY)) {
        postgres.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, name text NOT NULL, qty int NOT NULL, note text)",
            "INSERT INTO " + table + " VALUES (1, 'ada', 3, 'x'), (2, 'bob', 5, NULL)");
      }
      postgres.execute("ALTER TABLE " + FULL + " REPLICA IDENTITY FULL");
      Map<String, String> source = EndToEnd.configFile("debezium-postgres-source.json");
      source.putAll(postgres.debeziumConnectionConfig());
      connect.startConnector("pg-source", source, 1);
      for (String table : List.of(FULL, DEFAULT_IDENTITY)) {
        postgres.execute("INSERT INTO " + table + " VALUES (3, 'cy', 7, 'z')", "UPDATE " + table + " SET qty = 4 WHERE id = 1",
            "DELETE FROM " + table + " WHERE id = 2", "DELETE FROM " + table + " WHERE id = 3");
        // 2 snapshot reads, insert, update, 2 deletes and their 2 tombstones
        connect.readRecords(topic(table), 8);
      }

      connect.startConnector("audit-full", sink(FULL, "before"), 1);
      connect.startConnector("audit-default", sink(DEFAULT_IDENTITY, "key"), 1);
      awaitCaughtUp(connect, "audit-full", FULL);
      awaitCaughtUp(connect, "audit-default", DEFAULT_IDENTITY);

      assertThat(changes(FULL)).containsExactlyInAnyOrder(
          Row.of(1, "ada", 3, "x", "r"), Row.of(2, "bob", 5, null, "r"), Row.of(3, "cy", 7, "z", "c"), Row.of(1, "ada", 4, "x", "u"),
          Row.of(2, "bob", 5, null, "d"), Row.of(3, "cy", 7, "z", "d"));
      assertThat(changes(DEFAULT_IDENTITY)).containsExactlyInAnyOrder(
          Row.of(1, "ada", 3, "x", "r"), Row.of(2, "bob", 5, null, "r"), Row.of(3, "cy", 7, "z", "c"), Row.of(1, "ada", 4, "x", "u"),
          Row.of(2, null, null, null, "d"), Row.of(3, null, null, null, "d"));
      StructType schema = KernelTables.schema(tablePath(FULL));
      assertThat(schema.field("id").orElseThrow().nullable()).as("the key stays NOT NULL").isFalse();
      assertThat(schema.field("name").orElseThrow().nullable()).as("a non-key NOT NULL column is nullable in the audit table").isTrue();
    }
  }

  /** The change columns and {@code _op} of every row of the audit table of {@code table}. */
  private List<Row> changes(String table) {
    return KernelTables.readRows(tablePath(table)).stream().map(row -> Row.of(row.get(0), row.get(1), row.get(2), row.get(3), row.get(4)))
        .toList();
  }

  private Map<String, String> sink(String table, String deleteImage) {
    Map<String, String> config = EndToEnd.configFile("mergesink-audit.json");
    assertThat(config).containsEntry("write.mode", "append");
    config.remove("topics.regex");
    config.put("topics", topic(table));
    config.put("table.root", tables.toString());
    config.put("append.delete.image", deleteImage);
    config.put("errors.tolerance", "none");
    config.put("commit.interval.ms", "500");
    return config;
  }

  private void awaitCaughtUp(LocalConnect connect, String sink, String table) {
    long last = connect.endOffsets(topic(table)).get(new TopicPartition(topic(table), 0)) - 1;
    Await.until("txn version " + last + " in " + tablePath(table), EndToEnd.CATCH_UP, () -> {
      connect.status(sink).tasks().stream().filter(task -> "FAILED".equals(task.state())).findFirst().ifPresent(task -> {
        throw new AssertionError(sink + " task failed: " + task.trace());
      });
      return Files.isDirectory(Path.of(tablePath(table), "_delta_log"))
          ? KernelTables.txnVersion(tablePath(table), sink + ":" + topic(table) + ":0") : Optional.<Long>empty();
    }, Optional.of(last)::equals);
  }

  private static String topic(String table) {
    return "pg.public." + table;
  }

  /** Where the deploy file's {@code table.name.format=audit/${source.schema}/${source.table}} puts the table. */
  private String tablePath(String table) {
    return tables.resolve("audit").resolve("public").resolve(table).toString();
  }
}
