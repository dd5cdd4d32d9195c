package io.mergesink.connect.e2e;

import static io.mergesink.core.testing.KernelChangeFeed.DELETE;
import static io.mergesink.core.testing.KernelChangeFeed.INSERT;
import static io.mergesink.core.testing.KernelChangeFeed.UPDATE_POSTIMAGE;
import static io.mergesink.core.testing.KernelChangeFeed.UPDATE_PREIMAGE;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelChangeFeed;
import io.mergesink.core.testing.KernelChangeFeed.Change;
import io.mergesink.core.testing.KernelChangeFeed.Version;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.testing.SinkTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change Data Feed end to end, PostgreSQL → Debezium → Kafka → MergeSink → Delta: the sink creates
 * {@code items} with {@code table.properties.delta.enableChangeDataFeed=true}; a snapshot, updates,
 * deletes and inserts follow, landed by two sinks, one per merge strategy. The feed Delta Kernel reads back, replayed from version 0, equals the
 * PostgreSQL table, and its update pre- and postimages are the rows before and after the updates made.
 */
class PostgresChangeFeedIT {
  private static final String ITEMS = "items";
  private static final int SNAPSHOT_ROWS = 40;
  /** Each lands the stream with a sink of its own, into a table root of its own. */
  private static final List<String> STRATEGIES = List.of("deletion-vectors", "copy-on-write");

  @TempDir Path tables;

  @Test
  void theChangeFeedRebuildsThePostgresTableAndHoldsTheUpdates() throws Exception {
    try (EndToEnd e2e = EndToEnd.start(tables)) {
      e2e.postgres().execute("CREATE TABLE items (id bigint PRIMARY KEY, name text, qty integer)",
          "INSERT INTO items SELECT id, 'v0-' || id, 0 FROM generate_series(1, " + SNAPSHOT_ROWS + ") id");
      e2e.startSourceAndAwaitSnapshot(Map.of(ITEMS, (long) SNAPSHOT_ROWS));
      for (String strategy : STRATEGIES) {
        e2e.startSink(sink(strategy), tables.resolve(strategy),
            Map.of("merge.strategy", strategy, "table.properties.delta.enableChangeDataFeed", "true"));
      }
      // the snapshot lands first, so that the updates below find the rows they update
      for (String strategy : STRATEGIES) {
        e2e.awaitCaughtUp(sink(strategy), tables.resolve(strategy), ITEMS);
      }

      e2e.postgres().execute(
          "UPDATE items SET name = 'v1-' || id, qty = qty + 1 WHERE id % 3 = 0",
          "DELETE FROM items WHERE id % 5 = 0",
          "INSERT INTO items SELECT id, 'v0-' || id, 0 FROM generate_series(" + (SNAPSHOT_ROWS + 1) + ", " + (SNAPSHOT_ROWS + 20) + ") id",
          "UPDATE items SET name = 'v2-' || id, qty = qty + 10 WHERE id % 7 = 0",
          "INSERT INTO items VALUES (" + Workload.END_MARKER + ", 'end', 0)");
      e2e.awaitEndOfStream(List.of(ITEMS));
      for (String strategy : STRATEGIES) {
        e2e.awaitCaughtUp(sink(strategy), tables.resolve(strategy), ITEMS);
      }

      PostgresTable expected = PostgresTable.read(e2e.postgres(), ITEMS);
      SoftAssertions.assertSoftly(softly -> {
        for (String strategy : STRATEGIES) {
          checkFeed(softly, strategy, e2e.tablePath(tables.resolve(strategy), ITEMS), expected);
        }
        softly.assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
      });
    }
  }

  private static String sink(String strategy) {
    return "mergesink-" + strategy;
  }

  /** The table written with {@code strategy} at {@code path} and its change data feed against PostgreSQL's table. */
  private static void checkFeed(SoftAssertions softly, String strategy, String path, PostgresTable expected) {
    List<Version> feed = KernelChangeFeed.read(path);
    List<Change> changes = new ArrayList<>();
    feed.forEach(version -> changes.addAll(version.changes()));
    softly.assertThat(TableDiff.compare(expected, SinkTables.DELTA, path)).as(strategy + ": Delta table vs PostgreSQL").isEmpty();
    softly.assertThat(KernelChangeFeed.rebuild(feed)).as(strategy + ": the feed replayed from version 0")
        .containsExactlyInAnyOrderElementsOf(expected.rows()).containsExactlyInAnyOrderElementsOf(KernelTables.readRows(path));
    softly.assertThat(feed).as(strategy + ": versions without change data files remove nothing")
        .allMatch(version -> version.fromChangeDataFiles() || version.dataChangingRemoves() == 0);
    softly.assertThat(feed).filteredOn(Version::fromChangeDataFiles).as(strategy + ": commits with change data files").isNotEmpty();
    for (Version version : feed) {
      checkUpdatePairs(softly, version);
    }
    softly.assertThat(keysOf(changes, UPDATE_POSTIMAGE)).as(strategy + ": every snapshot row updated in PostgreSQL and still there has a postimage")
        .containsAll(updatedKeys(expected));
    softly.assertThat(keysOf(changes, DELETE)).as(strategy + ": every key deleted in PostgreSQL")
        .containsAll(List.of(5L, 10L, 15L, 20L, 25L, 30L, 35L, 40L));
    softly.assertThat(keysOf(changes, INSERT)).as(strategy + ": the snapshot and the inserts").contains(1L, 40L, 41L, 59L);
  }

  /**
   * In one version every postimage has the preimage of its key: the row before the update
   * ({@code v0-}/{@code v1-} name) and after it (a later name, the quantity increased).
   */
  private static void checkUpdatePairs(SoftAssertions softly, Version version) {
    for (Change post : version.changes()) {
      if (!post.type().equals(UPDATE_POSTIMAGE)) {
        continue;
      }
      Object id = post.row().get(0);
      List<Row> pre = version.changes().stream().filter(c -> c.type().equals(UPDATE_PREIMAGE) && c.row().get(0).equals(id))
          .map(Change::row).toList();
      softly.assertThat(pre).as("version " + version.version() + ": the preimage of " + post.row()).hasSize(1);
      if (pre.size() == 1) {
        softly.assertThat(generation(pre.get(0))).as("version " + version.version() + ": " + pre.get(0) + " → " + post.row())
            .isLessThan(generation(post.row()));
        softly.assertThat((Integer) pre.get(0).get(2)).as(pre.get(0) + " → " + post.row()).isLessThan((Integer) post.row().get(2));
      }
    }
  }

  /** 0, 1 or 2 for a name {@code v0-<id>}, {@code v1-<id>}, {@code v2-<id>}. */
  private static int generation(Row row) {
    return ((String) row.get(1)).charAt(1) - '0';
  }

  private static Set<Object> keysOf(List<Change> changes, String type) {
    Set<Object> keys = new HashSet<>();
    changes.stream().filter(change -> change.type().equals(type)).forEach(change -> keys.add(change.row().get(0)));
    return keys;
  }

  private static Set<Object> updatedKeys(PostgresTable table) {
    Set<Object> keys = new HashSet<>();
    table.rows().stream().filter(row -> (Long) row.get(0) <= SNAPSHOT_ROWS && !((String) row.get(1)).startsWith("v0-"))
        .forEach(row -> keys.add(row.get(0)));
    return keys;
  }
}
