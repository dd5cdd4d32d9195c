package io.mergesink.quickstart;

import io.mergesink.localconnect.LocalConnect;
import io.mergesink.quickstart.QuickstartOptions.SourceMode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The demo, start to end: a local Kafka broker and Connect worker, a change source (PostgreSQL with
 * Debezium, or the bundled stream), MergeSink writing a Delta, Iceberg or Paimon table
 * {@code <tableDir>/public/orders}; a workload
 * with a progress line per round; a wait until the table holds every event; the summary; then
 * everything but the table stops.
 */
final class Demo {
  /** How long the sink may take to commit every event once the workload ended. */
  static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(2);
  /** Rows the summary shows. */
  static final int SAMPLE_ROWS = 10;
  private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);

  private final QuickstartOptions options;
  private final Progress progress;
  private final StopSignal stop;

  Demo(QuickstartOptions options, Progress progress, StopSignal stop) {
    this.options = options;
    this.progress = progress;
    this.stop = stop;
  }

  /**
   * Runs the demo and prints its summary.
   *
   * @throws IllegalStateException when the table exists from an earlier run, a part cannot start,
   *     or a connector fails (the message has its stack trace)
   */
  DemoResult run() {
    Path tableDir = options.tableDir().toAbsolutePath().normalize();
    createDirectories(tableDir);
    SourceMode mode = options.source().resolve();
    try (TableLocation location = switch (options.storage()) {
      case LOCAL -> TableLocation.local(tableDir);
      case S3 -> TableLocation.s3(tableDir);
      case AZURE -> TableLocation.azure(tableDir);
    }) {
      Map<String, String> sinkConfig = ConnectorConfigs.mergeSink(location, options.format());
      try (TableReader reader = reader(location, sinkConfig)) {
        if (reader.exists()) {
          throw new IllegalStateException("the table " + reader.path() + " exists from an earlier run; its recorded Kafka "
              + "offsets belong to that run's broker. Delete it (rm -rf " + tableDir + ") or pass --table-dir "
              + "with a new directory");
        }
        try (ChangeSource source = mode == SourceMode.POSTGRES ? new PostgresSource() : new BundledSource()) {
          location.describe().forEach(progress::plain);
          progress.plain("Table format:    " + reader.format());
          progress.plain("Change source:   " + source.description());
          progress.line("starting a Kafka broker (KRaft) and a Connect worker in this JVM ...");
          try (LocalConnect connect = startKafka()) {
            progress.line("Kafka at " + connect.bootstrapServers() + ", Connect worker running");
            return runWith(connect, source, location, sinkConfig, reader);
          } finally {
            progress.line("Kafka and Connect stopped" + (mode == SourceMode.POSTGRES ? "; stopping PostgreSQL" : "")
                + (location.serverName().isEmpty() ? "" : "; stopping " + location.serverName()));
          }
        }
      }
    }
  }

  /** The reader of the table the sink config writes, in its format. */
  private TableReader reader(TableLocation location, Map<String, String> sinkConfig) {
    String tablePath = location.table(ConnectorConfigs.ORDERS_TABLE);
    return switch (options.format()) {
      case DELTA -> new DeltaTableReader(location.storage(), tablePath, ConnectorConfigs.SINK_NAME, ChangeSource.TOPIC);
      case ICEBERG -> new IcebergTableReader(sinkConfig, tablePath, ConnectorConfigs.ORDERS_TABLE,
          ConnectorConfigs.SINK_NAME, ChangeSource.TOPIC);
      case PAIMON -> new PaimonTableReader(location.root(), ConnectorConfigs.ORDERS_TABLE, ConnectorConfigs.SINK_NAME,
          ChangeSource.TOPIC);
    };
  }

  private DemoResult runWith(LocalConnect connect, ChangeSource source, TableLocation location,
      Map<String, String> sinkConfig, TableReader reader) {
    OrdersWorkload workload = new OrdersWorkload(options.seed());
    progress.line("creating public.orders with " + OrdersWorkload.INITIAL_ORDERS + " orders; starting "
        + (source instanceof PostgresSource ? "Debezium (initial snapshot, then streaming)" : "the bundled stream"));
    source.start(connect, workload.initialOrders());
    Waits.until("topic " + source.topic(), TOPIC_TIMEOUT, () -> connect.topicExists(source.topic()));
    connect.startConnector(ConnectorConfigs.SINK_NAME, sinkConfig);
    progress.line("MergeSink running: " + source.topic() + " -> " + reader.path() + " (upserts with deletion vectors, "
        + "commit every " + ConnectorConfigs.COMMIT_INTERVAL_MS + " ms)");

    for (int round = 1; round <= options.rounds() && !stop.requested(); round++) {
      OrdersWorkload.RoundCounts counts = workload.round(source);
      source.flush();
      connect.requireNotFailed(ConnectorConfigs.SINK_NAME);
      progress.line(String.format("round %d/%d: +%d new, %d updated, %d deleted | source %d orders | "
              + "topic %d events | %s", round, options.rounds(), counts.inserted(), counts.updated(), counts.deleted(),
          source.sourceRows(), total(endOffsets(connect, source.topic())), describe(reader)));
      if (round < options.rounds() && stop.await(options.roundInterval())) {
        progress.line("stop requested: ending the workload after round " + round);
      }
    }

    progress.line("workload done (" + source.expectedEvents() + " change events); waiting for MergeSink to "
        + "commit them all ...");
    boolean caughtUp = awaitCaughtUp(connect, source, reader);
    Map<Integer, Long> endOffsets = endOffsets(connect, source.topic());
    TableState state = reader.state().orElse(new TableState(-1, 0, Map.of()));
    DemoResult result = new DemoResult(reader.path(), state, source.sourceRows(), endOffsets, caughtUp);
    new Summary(progress).print(result, source.sourceTableName(), reader,
        reader.exists() ? reader.sample(SAMPLE_ROWS) : List.of(), location);
    return result;
  }

  /**
   * Waits until the topic holds every event the source produced and the table's txn versions are
   * the topic's end offsets − 1; prints a line whenever the committed count moves.
   *
   * @return false when {@link #CATCH_UP_TIMEOUT} passed first
   */
  private boolean awaitCaughtUp(LocalConnect connect, ChangeSource source, TableReader reader) {
    long deadline = System.nanoTime() + CATCH_UP_TIMEOUT.toNanos();
    long lastReported = -1;
    while (true) {
      Map<Integer, Long> endOffsets = endOffsets(connect, source.topic());
      Optional<TableState> state = reader.state();
      long inTopic = total(endOffsets);
      if (inTopic == source.expectedEvents() && state.isPresent() && state.get().caughtUpWith(endOffsets)) {
        progress.line("caught up: " + describe(reader.format(), state));
        return true;
      }
      connect.requireNotFailed(ConnectorConfigs.SINK_NAME);
      long committed = state.map(TableState::committedEvents).orElse(0L);
      if (committed != lastReported) {
        progress.line("waiting: topic " + inTopic + "/" + source.expectedEvents() + " events | "
            + describe(reader.format(), state));
        lastReported = committed;
      }
      if (System.nanoTime() - deadline > 0) {
        progress.line("MergeSink did not commit every event within " + CATCH_UP_TIMEOUT.toSeconds() + " s; see the "
            + "log file. Showing the table as it is.");
        return false;
      }
      pause();
    }
  }

  /**
   * One KRaft broker and one Connect worker in this JVM. What Kafka's storage formatter prints while
   * the broker starts is dropped, to keep the console for the demo's progress.
   */
  private static LocalConnect startKafka() {
    return LocalConnect.builder()
        .name("mergesink-quickstart")
        // one broker, a handful of groups: one offsets partition instead of 50 starts faster
        .brokerProps(Map.of("offsets.topic.num.partitions", "1", "group.initial.rebalance.delay.ms", "0"))
        .startupOutput(new PrintStream(OutputStream.nullOutputStream()))
        .start();
  }

  /** The end offset of every partition of {@code topic}, by partition number. */
  private static Map<Integer, Long> endOffsets(LocalConnect connect, String topic) {
    Map<Integer, Long> offsets = new TreeMap<>();
    connect.endOffsets(topic).forEach((partition, offset) -> offsets.put(partition.partition(), offset));
    return offsets;
  }

  private static String describe(TableReader reader) {
    return describe(reader.format(), reader.state());
  }

  private static String describe(String format, Optional<TableState> state) {
    String name = format.toLowerCase(Locale.ROOT);
    return state.map(s -> name + " v" + s.version() + ": " + s.rows() + " rows, " + s.committedEvents()
        + " events committed").orElse(name + ": no table yet");
  }

  private static long total(Map<Integer, Long> endOffsets) {
    return endOffsets.values().stream().mapToLong(Long::longValue).sum();
  }

  private static void pause() {
    try {
      Thread.sleep(Waits.POLL_INTERVAL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for MergeSink to catch up", e);
    }
  }

  private static void createDirectories(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the table directory " + dir, e);
    }
  }
}
