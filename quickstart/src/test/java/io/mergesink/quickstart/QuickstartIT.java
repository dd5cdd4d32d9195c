package io.mergesink.quickstart;

import io.mergesink.localconnect.LocalConnect;
import io.mergesink.localpg.LocalPostgres;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.PaimonTables;
import io.mergesink.quickstart.QuickstartOptions.TableFormat;
import io.mergesink.quickstart.QuickstartOptions.SourceMode;
import io.mergesink.quickstart.QuickstartOptions.TableStorage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart as a user runs it, in both source modes and every table format, with a short
 * workload: the console shows progress and the summary, and Delta Kernel (or Iceberg's generic
 * reader, or Paimon's reader) reads exactly the rows the workload left in the source table, with the
 * topic's last offsets recorded as txn versions (or in the Iceberg snapshot summary, or the Paimon
 * snapshot properties).
 */
class QuickstartIT {
  private static final int ROUNDS = 5;
  private static final long SEED = 7;

  @TempDir Path tables;

  @Test
  void bundledStreamLandsInTheDeltaTable() {
    Run run = run(SourceMode.BUNDLED);

    assertThat(run.output()).contains("Change source:   bundled Debezium change stream")
        .contains("round " + ROUNDS + "/" + ROUNDS + ":");
    assertSummaryAndTable(run);
    assertThat(run.result().endOffsets()).hasSize(BundledSource.PARTITIONS);
  }

  @Test
  void postgresChangesLandInTheDeltaTable() {
    // CI installs PostgreSQL (.ci/run): a missing server is a broken build machine, not a reason to skip
    assertThat(LocalPostgres.available())
        .as("PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install -y postgresql)").isTrue();
    Run run = run(SourceMode.POSTGRES);

    assertThat(run.output()).contains("Change source:   PostgreSQL").contains("Debezium");
    assertSummaryAndTable(run);
    assertThat(run.output()).contains("PostgreSQL table shop.public.orders: " + run.result().sourceRows() + " rows");
  }

  /** The table on the demo's S3 server; read back from the server's files once it stopped. */
  @Test
  void bundledChangesLandInATableOnS3() {
    Run run = run(SourceMode.BUNDLED, TableStorage.S3);

    String local = tables.resolve(TableLocation.S3_DATA_DIR).resolve("lake/tables/public/orders").toAbsolutePath().toString();
    assertThat(run.result().table()).isEqualTo("s3://lake/tables/public/orders");
    assertThat(run.output()).contains("Table root:      s3://lake/tables on a local S3 server (S3Proxy)")
        .contains("Delta table:    s3://lake/tables/public/orders")
        .contains("same table is the local directory " + local);
    assertTable(run, local);
  }

  /** The Iceberg table in the demo's JDBC catalog (SQLite), read through that catalog by Iceberg's generic reader. */
  @Test
  void bundledChangesLandInAnIcebergTable() {
    Run run = run(SourceMode.BUNDLED, TableStorage.LOCAL, TableFormat.ICEBERG);

    DemoResult result = run.result();
    String root = tables.toAbsolutePath().toString();
    String path = root + "/public/orders";
    assertThat(result.table()).isEqualTo(path);
    assertThat(result.caughtUp()).as(run.output()).isTrue();
    Map<String, String> catalogProperties = Map.of(
        "uri", "jdbc:sqlite:" + root + "/" + QuickstartOptions.ICEBERG_CATALOG_FILE, "warehouse", root);
    Table table;
    try (JdbcCatalog catalog = new JdbcCatalog()) {
      catalog.setConf(new Configuration());
      catalog.initialize("lake", catalogProperties);
      table = catalog.loadTable(TableIdentifier.of("public", "orders"));
    }
    assertThat(table.location()).isEqualTo(path);
    List<Row> rows = IcebergTables.readRows(table);
    assertThat(rows).as("rows Iceberg's reader reads").hasSize((int) result.sourceRows());
    assertThat(new HashSet<>(rows)).as("rows Iceberg's reader reads").isEqualTo(expectedRows(order -> Row.of(
        order.id(), order.customer(), order.status(), order.quantity(), order.amount(), order.placedOn(),
        OffsetDateTime.ofInstant(order.updatedAt(), ZoneOffset.UTC))));
    assertThat(table.currentSnapshot().sequenceNumber()).isGreaterThanOrEqualTo(result.state().version());
    Map<String, Long> positions = IcebergTables.positions(table);
    assertThat(result.endOffsets()).hasSize(BundledSource.PARTITIONS);
    result.endOffsets().forEach((partition, end) ->
        assertThat(positions).as("positions in the snapshot summary")
            .containsEntry("mergesink:shop.public.orders:" + partition, end - 1));

    assertThat(run.output())
        .contains("Table format:    Iceberg")
        .contains("== MergeSink quickstart: summary ==")
        .contains("Iceberg table:  " + path)
        .contains("Iceberg version: " + result.state().version())
        .contains("Rows:           " + rows.size() + " (")
        .contains(" - match")
        .contains("Iceberg snapshot summaries, keys mergesink.position.mergesink:<topic>:<partition>")
        .contains("committed through offset")
        .contains("Sample (10 of " + rows.size() + " rows, by id):")
        .contains("--conf spark.sql.catalog.lake=org.apache.iceberg.spark.SparkCatalog")
        .contains("--conf spark.sql.catalog.lake.uri=jdbc:sqlite:" + root + "/" + QuickstartOptions.ICEBERG_CATALOG_FILE)
        .contains("spark.sql(\"SELECT * FROM lake.public.orders\")")
        .contains("caught up: iceberg v");
  }

  /** The Paimon table in a filesystem catalog on the table directory, read by Paimon's reader (deletion vectors applied). */
  @Test
  void bundledChangesLandInAPaimonTable() {
    Run run = run(SourceMode.BUNDLED, TableStorage.LOCAL, TableFormat.PAIMON);

    DemoResult result = run.result();
    String root = tables.toAbsolutePath().toString();
    String path = root + "/public.db/orders";
    assertThat(result.table()).isEqualTo(path);
    assertThat(result.caughtUp()).as(run.output()).isTrue();
    FileStoreTable table = PaimonTables.load(root, "public", "orders");
    assertThat(table.primaryKeys()).containsExactly("id");
    List<Row> rows = PaimonTables.engineRows(table);
    assertThat(rows).as("rows Paimon's reader reads").hasSize((int) result.sourceRows());
    assertThat(new HashSet<>(rows)).as("rows Paimon's reader reads").isEqualTo(expectedRows(QuickstartIT::engineRow));
    assertThat(table.snapshotManager().latestSnapshotId()).isGreaterThanOrEqualTo(result.state().version());
    Map<String, Long> positions = PaimonTables.positions(table);
    assertThat(result.endOffsets()).hasSize(BundledSource.PARTITIONS);
    result.endOffsets().forEach((partition, end) ->
        assertThat(positions).as("positions in the snapshot properties")
            .containsEntry("mergesink:shop.public.orders:" + partition, end - 1));

    assertThat(run.output())
        .contains("Table format:    Paimon")
        .contains("Paimon table:   " + path)
        .contains("Paimon version: " + result.state().version())
        .contains("Rows:           " + rows.size() + " (")
        .contains(" - match")
        .contains("Paimon snapshot properties, keys mergesink.position.mergesink:<topic>:<partition>")
        .contains("committed through offset")
        .contains("Sample (10 of " + rows.size() + " rows, by id):")
        .contains("--conf spark.sql.catalog.paimon.warehouse=file:" + root)
        .contains("spark.sql(\"SELECT * FROM paimon.public.orders\")")
        .contains("caught up: paimon v");
  }

  @Test
  void paimonOnS3IsAUsageError() {
    assertThatThrownBy(() -> QuickstartOptions.parse(List.of("--format", "paimon", "--storage", "s3")))
        .isInstanceOf(QuickstartOptions.UsageException.class)
        .hasMessageContaining("--format paimon takes --storage local only");
  }

  @Test
  void icebergOnS3IsAUsageError() {
    assertThatThrownBy(() -> QuickstartOptions.parse(List.of("--format", "iceberg", "--storage", "s3")))
        .isInstanceOf(QuickstartOptions.UsageException.class)
        .hasMessageContaining("--format iceberg takes --storage local only");
  }

  private Run run(SourceMode mode) {
    return run(mode, TableStorage.LOCAL);
  }

  private Run run(SourceMode mode, TableStorage storage) {
    return run(mode, storage, TableFormat.DELTA);
  }

  private Run run(SourceMode mode, TableStorage storage, TableFormat format) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    QuickstartOptions options = new QuickstartOptions(tables, mode, ROUNDS, Duration.ZERO, SEED, storage, format);
    DemoResult result;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      result = Quickstart.run(options, out, new StopSignal());
    }
    return new Run(result, bytes.toString(StandardCharsets.UTF_8));
  }

  private void assertSummaryAndTable(Run run) {
    String path = tables.resolve("public").resolve("orders").toAbsolutePath().toString();
    assertThat(run.result().table()).isEqualTo(path);
    assertTable(run, path);
    assertThat(run.output()).contains("Delta table:    " + path);
  }

  /** The table at {@code path} (read by Delta Kernel) and the summary agree with the workload. */
  private void assertTable(Run run, String path) {
    DemoResult result = run.result();
    assertThat(result.caughtUp()).as(run.output()).isTrue();
    List<Row> rows = KernelTables.readRows(path);
    assertThat(rows).as("rows Delta Kernel reads").hasSize((int) result.sourceRows());
    assertThat(new HashSet<>(rows)).as("rows Delta Kernel reads").isEqualTo(expectedRows(QuickstartIT::engineRow));
    // a compaction may commit after the demo read the caught-up table; it changes no row and no position
    assertThat(KernelTables.latestVersion(path)).isGreaterThanOrEqualTo(result.state().version());
    result.endOffsets().forEach((partition, end) ->
        assertThat(KernelTables.txnVersion(path, "mergesink:shop.public.orders:" + partition))
            .as("txn version of partition " + partition).contains(end - 1));

    assertThat(run.output())
        .contains("== MergeSink quickstart: summary ==")
        .contains("Delta version:  " + result.state().version())
        .contains("Rows:           " + rows.size() + " (")
        .contains(" - match")
        .contains("committed through offset")
        .contains("Sample (10 of " + rows.size() + " rows, by id):")
        .contains("spark.read.format(\"delta\").load(\"" + path + "\")")
        .contains("SELECT * FROM delta_scan('" + path + "')")
        // the sink may compact the table right after catching up, so the final version can be later
        .contains("caught up: delta v");
  }

  /** An order as the engine holds it, and Delta Kernel and the tests' Paimon reader read it: dates as days, timestamps as microseconds. */
  private static Row engineRow(Order order) {
    return Row.of(order.id(), order.customer(), order.status(), order.quantity(), order.amount(), (int) order.placedOn().toEpochDay(),
        ChronoUnit.MICROS.between(java.time.Instant.EPOCH, order.updatedAt()));
  }

  /** The rows the workload leaves with {@link #SEED}, as {@code reader} returns an order. */
  private static Set<Row> expectedRows(Function<Order, Row> reader) {
    Recorder recorder = new Recorder();
    OrdersWorkload workload = new OrdersWorkload(SEED);
    workload.initialOrders().forEach(recorder::insert);
    for (int round = 0; round < ROUNDS; round++) {
      workload.round(recorder);
    }
    return recorder.table.values().stream().map(reader).collect(Collectors.toSet());
  }

  private record Run(DemoResult result, String output) {}

  /** A source that only keeps the table the workload's changes describe. */
  private static final class Recorder implements ChangeSource {
    final Map<Integer, Order> table = new HashMap<>();

    @Override
    public String description() {
      return "recorder";
    }

    @Override
    public void start(LocalConnect connect, List<Order> initial) {
      throw new UnsupportedOperationException("the recorder never starts");
    }

    @Override
    public void insert(Order order) {
      table.put(order.id(), order);
    }

    @Override
    public void update(Order order) {
      table.put(order.id(), order);
    }

    @Override
    public void delete(int id) {
      table.remove(id);
    }

    @Override
    public void flush() {}

    @Override
    public long expectedEvents() {
      return 0;
    }

    @Override
    public long sourceRows() {
      return table.size();
    }

    @Override
    public String sourceTableName() {
      return "recorder";
    }

    @Override
    public void close() {}
  }
}
