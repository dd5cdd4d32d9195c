package io.mergesink.quickstart;

import io.mergesink.localconnect.LocalConnect;
import io.mergesink.localpg.LocalPostgres;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.quickstart.QuickstartOptions.SourceMode;
import io.mergesink.quickstart.QuickstartOptions.TableStorage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart as a user runs it, in both source modes, with a short workload: the console
 * shows progress and the summary, and Delta Kernel reads exactly the rows the workload left in
 * the source table, with the topic's last offsets recorded as txn versions.
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

  private Run run(SourceMode mode) {
    return run(mode, TableStorage.LOCAL);
  }

  private Run run(SourceMode mode, TableStorage storage) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    QuickstartOptions options = new QuickstartOptions(tables, mode, ROUNDS, Duration.ZERO, SEED, storage);
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
    assertThat(new HashSet<>(rows)).as("rows Delta Kernel reads").isEqualTo(expectedRows());
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

  /** The rows the workload leaves with {@link #SEED}, as Delta Kernel returns them. */
  private static Set<Row> expectedRows() {
    Recorder recorder = new Recorder();
    OrdersWorkload workload = new OrdersWorkload(SEED);
    workload.initialOrders().forEach(recorder::insert);
    for (int round = 0; round < ROUNDS; round++) {
      workload.round(recorder);
    }
    return recorder.table.values().stream()
        .map(order -> Row.of(order.id(), order.customer(), order.status(), order.quantity(), order.amount(),
            (int) order.placedOn().toEpochDay(),
            ChronoUnit.MICROS.between(java.time.Instant.EPOCH, order.updatedAt())))
        .collect(Collectors.toSet());
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
