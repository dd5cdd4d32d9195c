package io.mergesink.connect.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.generatedcolumns.GeneratedColumns;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.types.TypeChanges;
import io.mergesink.ingest.testing.SinkTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partitioned table end to end, PostgreSQL → Debezium → Kafka → MergeSink → Delta: the sink
 * creates {@code orders} partitioned by a column of the row ({@code region}) and a computed one
 * ({@code created_day = CAST(created_at AS DATE)}, a Delta generated column); updates move rows
 * between regions and days (midnight and before-1970 timestamps included), deletes and re-inserts
 * follow, and an {@code ALTER COLUMN qty TYPE bigint} in the source widens the table's column
 * ({@code schema.evolution=widen-types}). The Delta table, read by Delta Kernel, equals the
 * PostgreSQL table plus the computed column, with both strategies (two sinks of one stream).
 */
class PostgresPartitionedIT {
  private static final String ORDERS = "orders";
  private static final int SNAPSHOT_ROWS = 40;
  private static final List<String> REGIONS = List.of("eu", "us", "ap", "a b/c=d%e");
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  /** Each lands the stream with a sink of its own, into a table root of its own. */
  private static final List<String> STRATEGIES = List.of("deletion-vectors", "copy-on-write");

  @TempDir Path tables;

  @Test
  void partitionedTableWithAComputedPartitionColumnEqualsPostgres() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (EndToEnd e2e = EndToEnd.start(tables)) {
      e2e.postgres().execute("CREATE TABLE orders (id bigint PRIMARY KEY, region text, created_at timestamp NOT NULL,"
          + " amount numeric(10,2), qty integer)");
      List<String> snapshot = new ArrayList<>();
      for (int id = 1; id <= SNAPSHOT_ROWS; id++) {
        snapshot.add(insert(id, random));
      }
      e2e.postgres().execute(snapshot.toArray(String[]::new));
      e2e.startSourceAndAwaitSnapshot(Map.of(ORDERS, (long) SNAPSHOT_ROWS));
      for (String strategy : STRATEGIES) {
        e2e.startSink("mergesink-" + strategy, tables.resolve(strategy), Map.of("partition.fields",
            "region,created_day=CAST(created_at AS DATE)", "schema.evolution", "widen-types", "merge.strategy", strategy));
      }

      List<String> streamed = new ArrayList<>();
      for (int id = 1; id <= SNAPSHOT_ROWS; id += 3) {
        streamed.add("UPDATE orders SET region = '" + region(random) + "', amount = amount + 1 WHERE id = " + id);
      }
      for (int id = 2; id <= SNAPSHOT_ROWS; id += 4) {
        streamed.add("UPDATE orders SET created_at = created_at + interval '" + (1 + random.nextInt(40)) + " days' WHERE id = " + id);
      }
      streamed.add("UPDATE orders SET created_at = timestamp '1969-12-31 23:59:59.999999', region = NULL WHERE id = 5");
      streamed.add("UPDATE orders SET created_at = timestamp '2026-03-01 00:00:00' WHERE id = 6");
      streamed.add("DELETE FROM orders WHERE id IN (7, 8, 9)");
      streamed.add(insert(8, random));
      for (int id = SNAPSHOT_ROWS + 1; id <= SNAPSHOT_ROWS + 20; id++) {
        streamed.add(insert(id, random));
      }
      e2e.postgres().execute(streamed.toArray(String[]::new));
      e2e.postgres().execute("ALTER TABLE orders ALTER COLUMN qty TYPE bigint",
          "UPDATE orders SET qty = 5000000000 + id, region = 'us' WHERE id % 5 = 0",
          "INSERT INTO orders VALUES (" + Workload.END_MARKER + ", 'eu', timestamp '2026-06-30 12:00:00', 1.00, 1)");
      e2e.awaitEndOfStream(List.of(ORDERS));
      for (String strategy : STRATEGIES) {
        e2e.awaitCaughtUp("mergesink-" + strategy, tables.resolve(strategy), ORDERS);
      }

      PostgresTable expected = withCreatedDay(PostgresTable.read(e2e.postgres(), ORDERS));
      Map<String, Snapshot> snapshots = new HashMap<>();
      for (String strategy : STRATEGIES) {
        snapshots.put(strategy, DeltaTable.forPath(new LocalStorage(), e2e.tablePath(tables.resolve(strategy), ORDERS)).snapshot());
      }
      SoftAssertions.assertSoftly(softly -> {
        for (String strategy : STRATEGIES) {
          String path = e2e.tablePath(tables.resolve(strategy), ORDERS);
          Snapshot table = snapshots.get(strategy);
          softly.assertThat(TableDiff.compare(expected, SinkTables.DELTA, path))
              .as(strategy + ": Delta table vs PostgreSQL + created_day, seed " + seed).isEmpty();
          softly.assertThat(table.metadata().partitionColumns()).as(strategy).containsExactly("region", "created_day");
          softly.assertThat(table.schema().field("created_day").orElseThrow().metadata()).as(strategy)
              .containsEntry(GeneratedColumns.EXPRESSION_KEY, "CAST(created_at AS DATE)");
          softly.assertThat(table.schema().field("qty").orElseThrow().metadata()).as(strategy).containsKey(TypeChanges.METADATA_KEY);
          softly.assertThat(table.protocol().writerFeatures()).as(strategy).contains("generatedColumns", "typeWidening");
          softly.assertThat(table.files().values().stream().map(AddFile::partitionValues).collect(Collectors.toSet()))
              .as(strategy + ": files in many partitions").hasSizeGreaterThan(5);
        }
        softly.assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
      });
    }
  }

  private static String insert(int id, Random random) {
    String region = region(random);
    return "INSERT INTO orders VALUES (" + id + ", " + (region == null ? "NULL" : "'" + region + "'") + ", timestamp '2026-01-01 00:00:00'"
        + " + interval '" + random.nextInt(30 * 24 * 3600) + " seconds' + interval '" + random.nextInt(1_000_000) + " microseconds', "
        + random.nextInt(100_000) / 100.0 + ", " + random.nextInt(1000) + ")";
  }

  private static String region(Random random) {
    int pick = random.nextInt(REGIONS.size() + 1);
    return pick == REGIONS.size() ? null : REGIONS.get(pick);
  }

  /** The PostgreSQL table as the sink must have written it: its columns and the computed {@code created_day}. */
  private static PostgresTable withCreatedDay(PostgresTable table) {
    StructType schema = table.schema().add(new StructField("created_day", PrimitiveType.DATE, true));
    int createdAt = table.schema().indexOf("created_at");
    List<Row> rows = new ArrayList<>();
    for (Row row : table.rows()) {
      Object[] values = java.util.Arrays.copyOf(row.toArray(), schema.size());
      values[values.length - 1] = Math.toIntExact(Math.floorDiv((Long) row.get(createdAt), MICROS_PER_DAY));
      rows.add(Row.of(values));
    }
    return new PostgresTable(table.name(), schema, table.keyColumns(), table.jsonColumns(), rows);
  }
}
