package io.mergesink.connect.e2e;

import io.mergesink.connect.testing.SourceDatabase;
import io.mergesink.localpg.LocalPostgres;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.ingest.decode.LogicalTypes;
import io.mergesink.ingest.testing.SinkTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.util.clusters.WorkerHandle;

/**
 * A throwaway PostgreSQL, Connect workers (one unless the test asks for more) with a KRaft broker, Debezium's PostgreSQL connector
 * registered from {@code config/debezium-postgres-source.json} and MergeSink from
 * {@code config/mergesink-upsert.json}, each with only what points at the test's database and
 * directories overridden. The caller closes it.
 */
final class EndToEnd implements AutoCloseable {
  static final String SOURCE = "pg-source";
  /** The sink connector's name: the prefix of its txn app ids. */
  static final String SINK = "mergesink-upsert";
  static final Duration CATCH_UP = Duration.ofMinutes(5);
  private static final String TOPIC_PREFIX = "pg";
  /** Debezium's transaction topic ({@code provide.transaction.metadata=true}). */
  static final String TRANSACTION_TOPIC = TOPIC_PREFIX + ".transaction";
  private static final String SCHEMA = "public";
  private static final Path CONFIG_DIR = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent().resolve("config");
  private static final String SOURCE_FILE = "debezium-postgres-source.json";
  private static final String SINK_FILE = "mergesink-upsert.json";
  /** Short, so the sink commits many times while the workload streams in. */
  private static final String COMMIT_INTERVAL_MS = "500";
  private static final long ADMIN_TIMEOUT_SECONDS = 30;
  private static final Duration POLL = Duration.ofMillis(500);

  private final LocalPostgres postgres;
  private final LocalConnect connect;
  private final Path tableRoot;
  /** The format of the sink's tables, from its {@code table.format} when it starts. */
  private SinkTables format = SinkTables.DELTA;

  private EndToEnd(LocalPostgres postgres, LocalConnect connect, Path tableRoot) {
    this.postgres = postgres;
    this.connect = connect;
    this.tableRoot = tableRoot;
  }

  /** Starts PostgreSQL and a one-worker Connect cluster; the sink writes its tables under {@code tableRoot}. */
  static EndToEnd start(Path tableRoot) {
    return start(tableRoot, 1, Map.of());
  }

  /** {@link #start(Path)} with {@code workers} Connect workers of {@code workerProps}. */
  static EndToEnd start(Path tableRoot, int workers, Map<String, String> workerProps) {
    assertThat(LocalPostgres.available())
        .as("PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install -y postgresql)")
        .isTrue();
    LocalPostgres postgres = LocalPostgres.start(SourceDatabase.NAME);
    try {
      return new EndToEnd(postgres, LocalConnect.start(workers, workerProps), tableRoot);
    } catch (RuntimeException | AssertionError e) {
      postgres.close();
      throw e;
    }
  }

  LocalPostgres postgres() {
    return postgres;
  }

  LocalConnect connect() {
    return connect;
  }

  /** Registers the Debezium source and waits until its snapshot of both tables is in Kafka. */
  void startSourceAndAwaitSnapshot() {
    startSourceAndAwaitSnapshot(Map.of(Workload.ACCOUNTS, Workload.snapshotEvents(Workload.ACCOUNTS),
        Workload.LINE_ITEMS, Workload.snapshotEvents(Workload.LINE_ITEMS)));
  }

  /** Registers the Debezium source and waits until its snapshot of each table (that many events) is in Kafka. */
  void startSourceAndAwaitSnapshot(Map<String, Long> snapshotEvents) {
    startSourceAndAwaitSnapshot(snapshotEvents, Map.of());
  }

  /** {@link #startSourceAndAwaitSnapshot(Map)} with {@code overrides} of the deploy file's options. */
  void startSourceAndAwaitSnapshot(Map<String, Long> snapshotEvents, Map<String, String> overrides) {
    Map<String, String> config = configFile(SOURCE_FILE);
    assertThat(config).containsEntry("plugin.name", "pgoutput").containsEntry("topic.prefix", TOPIC_PREFIX);
    config.putAll(postgres.debeziumConnectionConfig());
    config.putAll(overrides);
    connect.startConnector(SOURCE, config, 1);
    snapshotEvents.forEach((table, events) -> Await.until(events + " snapshot events in " + topic(table), LocalConnect.DEFAULT_TIMEOUT,
        () -> topicExists(topic(table)) ? connect.recordCount(topic(table)) : -1L, count -> count >= events));
  }

  /**
   * Registers MergeSink. Its {@code topics.regex} subscription sees topics that exist when it
   * starts (the consumer refreshes the pattern only every {@code metadata.max.age.ms}), so the
   * source's topics must exist by now.
   */
  void startSink() {
    startSink(Map.of());
  }

  /** Registers MergeSink with {@code overrides} of the deploy file's options (see {@link #startSink()}). */
  void startSink(Map<String, String> overrides) {
    startSink(SINK, tableRoot, overrides);
  }

  /**
   * Registers MergeSink as connector {@code name} writing its tables under {@code root}, with
   * {@code overrides} of the deploy file's options: several sinks land one stream, each as it is
   * configured.
   */
  void startSink(String name, Path root, Map<String, String> overrides) {
    Map<String, String> config = configFile(SINK_FILE);
    assertThat(config).containsEntry("table.name.format", "${source.schema}/${source.table}")
        .containsEntry("write.mode", "upsert");
    config.put("table.root", root.toString());
    config.put("commit.interval.ms", COMMIT_INTERVAL_MS);
    config.putAll(overrides);
    format = SinkTables.of(config);
    connect.startConnector(name, config, Integer.parseInt(config.get("tasks.max")));
  }

  /**
   * Stops, as if killed ({@code AbruptWorkers}), a worker that runs a task of the sink and not the
   * source's task. A Debezium task abandoned inside this JVM keeps its replication connection open
   * (a killed process's connection would close), and with it the replication slot, so the source
   * could not resume on the other worker. Waits for such a worker: a worker that joined after the
   * connectors started is given tasks only by a later rebalance.
   *
   * @throws AssertionError when no worker runs a sink task without the source's task in time
   */
  void killSinkWorker() {
    WorkerHandle worker = Await.until("a worker that runs a task of " + SINK + " and not the task of " + SOURCE,
        LocalConnect.DEFAULT_TIMEOUT, this::sinkOnlyWorker, Optional::isPresent).orElseThrow();
    connect.cluster().removeWorker(worker);
  }

  private Optional<WorkerHandle> sinkOnlyWorker() {
    Set<Integer> sourceWorkers = workerPorts(SOURCE);
    Set<Integer> sinkWorkers = workerPorts(SINK);
    return connect.cluster().workers().stream()
        .filter(handle -> sinkWorkers.contains(handle.url().getPort()) && !sourceWorkers.contains(handle.url().getPort()))
        .findFirst();
  }

  /** The REST ports of the workers that run a task of {@code connector} (a worker id is {@code host:port}). */
  private Set<Integer> workerPorts(String connector) {
    return connect.status(connector).tasks().stream().map(task -> URI.create("http://" + task.workerId()).getPort())
        .collect(Collectors.toSet());
  }

  static String topic(String table) {
    return TOPIC_PREFIX + "." + SCHEMA + "." + table;
  }

  /** Where {@code table.name.format=${source.schema}/${source.table}} puts the table. */
  String tablePath(String table) {
    return tablePath(tableRoot, table);
  }

  /** Where the sink writing under {@code root} puts the table. */
  String tablePath(Path root, String table) {
    return format.location(root, SCHEMA + "/" + table);
  }

  /** The sink's recorded offset of the table's topic (partition 0), empty before its first commit. */
  Optional<Long> txnVersion(String table) {
    return txnVersion(SINK, tableRoot, table);
  }

  private Optional<Long> txnVersion(String sink, Path root, String table) {
    return format.position(tablePath(root, table), sink + ":" + topic(table) + ":0");
  }

  /**
   * Waits until the last record of each table's topic is the insert of {@link Workload#END_MARKER}:
   * then every change before it is in Kafka (the source's producer keeps each partition's order).
   */
  void awaitEndOfStream() {
    awaitEndOfStream(List.of(Workload.ACCOUNTS, Workload.LINE_ITEMS));
  }

  /** {@link #awaitEndOfStream()} for {@code tables}. */
  void awaitEndOfStream(List<String> tables) {
    for (String table : tables) {
      Await.until("the end marker as the last record of " + topic(table), CATCH_UP,
          () -> lastRecordKey(topic(table)), key -> key.filter(EndToEnd::isEndMarker).isPresent());
    }
  }

  /**
   * Waits until the sink holds, in each table, the last offset of the table's topic (partition 0)
   * as its txn version.
   */
  void awaitCaughtUp() {
    awaitCaughtUp(List.of(Workload.ACCOUNTS, Workload.LINE_ITEMS));
  }

  /** {@link #awaitCaughtUp()} for {@code tables}. */
  void awaitCaughtUp(List<String> tables) {
    for (String table : tables) {
      awaitCaughtUp(SINK, tableRoot, table);
    }
  }

  /** {@link #awaitCaughtUp()} for the table of the sink {@code sink} that writes under {@code root}. */
  void awaitCaughtUp(String sink, Path root, String table) {
    long last = lastOffset(table);
    Await.until("txn version " + last + " in " + tablePath(root, table), CATCH_UP, () -> txnVersion(sink, root, table),
        Optional.of(last)::equals);
  }

  /** The offset of the last record of the table's topic (partition 0). */
  long lastOffset(String table) {
    return connect.endOffsets(topic(table)).get(new TopicPartition(topic(table), 0)) - 1;
  }

  /** The position id the sink records for the table's topic (partition 0): {@code <connector>:<topic>:0}. */
  static String positionId(String table) {
    return SINK + ":" + topic(table) + ":0";
  }

  /**
   * The differences between each of the sink's tables (Delta, Iceberg or Paimon, read by that
   * format's independent reader) and its PostgreSQL table (see {@link TableDiff}); empty when equal.
   */
  List<String> tableDifferences() {
    List<String> problems = new ArrayList<>();
    for (String table : List.of(Workload.ACCOUNTS, Workload.LINE_ITEMS)) {
      PostgresTable expected = PostgresTable.read(postgres, table);
      String diff = TableDiff.compare(expected, format, tablePath(table));
      if (!diff.isEmpty()) {
        problems.add(diff);
      }
    }
    return problems;
  }

  /** How many records the sink sent to its dead letter queue (0 when the topic does not exist). */
  long deadLetters() {
    String dlq = configFile(SINK_FILE).get("errors.deadletterqueue.topic.name");
    return topicExists(dlq) ? connect.recordCount(dlq) : 0;
  }

  /** The first {@code count} records of the table's topic, decoded: (key, value) structs, value null for tombstones. */
  List<Struct[]> records(String table, int count) {
    List<Struct[]> records = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : connect.readRecords(topic(table), count)) {
      records.add(new Struct[] {(Struct) connect.decodeKey(record).value(), (Struct) connect.decodeValue(record).value()});
    }
    return records;
  }

  /** {@code <op>:<id>} of every accounts event whose {@code after.notes} is Debezium's unavailable-value placeholder. */
  Set<String> toastPlaceholderEvents() {
    int count = Math.toIntExact(connect.recordCount(topic(Workload.ACCOUNTS)));
    Set<String> events = new TreeSet<>();
    for (Struct[] record : records(Workload.ACCOUNTS, count)) {
      Struct value = record[1];
      Struct after = value == null ? null : value.getStruct("after");
      if (after != null && LogicalTypes.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER.equals(after.getString("notes"))) {
        events.add(value.getString("op") + ":" + after.getInt32("id"));
      }
    }
    return events;
  }

  @Override
  public void close() {
    try {
      connect.close();
    } finally {
      postgres.close();
    }
  }

  private Optional<Struct> lastRecordKey(String topic) {
    TopicPartition partition = new TopicPartition(topic, 0);
    try (KafkaConsumer<byte[], byte[]> consumer = connect.cluster().kafka().createConsumer(Map.of())) {
      consumer.assign(List.of(partition));
      consumer.seekToEnd(List.of(partition));
      long end = consumer.position(partition);
      if (end == 0) {
        return Optional.empty();
      }
      consumer.seek(partition, end - 1);
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        return Optional.of((Struct) connect.decodeKey(record).value());
      }
      return Optional.empty();
    }
  }

  /** Whether the first key column ({@code id}, {@code order_id}) is {@link Workload#END_MARKER}. */
  private static boolean isEndMarker(Struct key) {
    return ((Number) key.get(key.schema().fields().get(0))).longValue() == Workload.END_MARKER;
  }

  private boolean topicExists(String topic) {
    try (Admin admin = connect.cluster().kafka().createAdminClient()) {
      Set<String> topics = admin.listTopics().names().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return topics.contains(topic);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot list topics: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing topics", e);
    }
  }

  /** A deploy file of {@code config/} as the options map users register. */
  static Map<String, String> configFile(String name) {
    Path file = CONFIG_DIR.resolve(name);
    Map<String, String> config = new HashMap<>();
    try {
      JsonNode json = new ObjectMapper().readTree(file.toFile());
      json.fields().forEachRemaining(field -> config.put(field.getKey(), field.getValue().asText()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return config;
  }
}
