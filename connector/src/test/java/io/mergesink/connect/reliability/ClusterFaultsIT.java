package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.connect.testing.AbruptWorkers;
import io.mergesink.ingest.testing.Expected.Position;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Faults only a real Connect cluster has: workers joining and leaving and {@code tasks.max}
 * changing while a stream runs over 8 partitions; one task owning every partition, then several,
 * with workers stopped abruptly while the stream runs; a broker restart in the middle of a stream;
 * and bytes that are not JSON at all. One cluster serves the tests of the class (each uses its own
 * topic, connector and table root, named after its cell) and ends with the workers it started
 * with; the abrupt stops get a cluster of their own, shared by their cells.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterFaultsIT {
  private static final Duration CATCH_UP = Duration.ofMinutes(3);
  private static final int WORKERS = 2;
  @TempDir Path tables;
  private LocalConnect connect;
  private LocalConnect abrupt;

  @BeforeAll
  void startCluster() {
    connect = LocalConnect.start(WORKERS);
  }

  @AfterAll
  void stopCluster() {
    connect.close();
    if (abrupt != null) {
      abrupt.close();
    }
  }

  /** The cluster of workers that do not wait for their tasks, started by the first test that needs it. */
  private LocalConnect abruptCluster() {
    if (abrupt == null) {
      abrupt = LocalConnect.start(WORKERS, AbruptWorkers.WORKER_PROPS);
    }
    return abrupt;
  }

  // Plain cells only: these scenarios check the table against ChangeStream's model, plain upserts and
  // appends; the CDC modes go through the same task machinery in the in-process scenarios.
  static Stream<Cell> rebalanceCells() {
    return Matrix.cells(Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.OFF), Cell::isPlain);
  }

  // in CI also an Iceberg cell (deletion vectors): workers stopped as if killed while tasks commit to Iceberg
  static Stream<Cell> abruptStopCells() {
    return Matrix.cells(List.of(Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.OFF),
        Cell.iceberg(Cell.Format.ICEBERG, Cell.Layout.DELETION_VECTORS)), Cell::isPlain);
  }

  static Stream<Cell> brokerRestartCells() {
    return Matrix.cells(Cell.of(Cell.Layout.APPEND, Cell.Compaction.FORCED), Cell::isPlain);
  }

  static Stream<Cell> rawBytesCells() {
    return Matrix.cells(Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.FORCED), Cell::isPlain);
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("rebalanceCells")
  void workersAndTasksComingAndGoingLoseAndDuplicateNothing(Cell cell) {
    String name = "rebalance-" + cell.slug();
    String topic = name + ".public.customers";
    int partitions = 8;
    connect.createTopic(topic, partitions);
    long seed = Workloads.seed("rebalance [" + cell + "]");
    Random random = new Random(seed);
    Path root = tables.resolve(name);
    try (ChangeStream stream = new ChangeStream(connect, topic, partitions)) {
      stream.mixedWorkload(2_000, random);
      stream.flush();
      connect.startConnector(name, sinkConfig(cell, topic, root, 2), 2);
      awaitFirstCommit(connect, cell, root, topic, name);

      updates(stream, random, 1_500);
      connect.cluster().addWorker();
      updates(stream, random, 1_500);
      connect.startConnector(name, sinkConfig(cell, topic, root, 4), 4);
      updates(stream, random, 1_500);
      connect.cluster().removeWorker();
      connect.awaitRunning(name, 4);
      updates(stream, random, 1_500);
      connect.startConnector(name, sinkConfig(cell, topic, root, 1), 1);
      updates(stream, random, 1_500);
      connect.startConnector(name, sinkConfig(cell, topic, root, 3), 3);
      updates(stream, random, 1_000);

      audit(connect, "rebalance seed " + seed + " [" + cell + "]", cell, root, topic, name, stream);
      connect.deleteConnector(name);
    }
  }

  /**
   * One task writes every partition's rows first, then two and three tasks
   * update and delete those keys while workers are stopped without waiting for their tasks and new
   * ones join; then one task again. Every rewrite must keep the rows of partitions it was not asked
   * to change visible to their owners.
   */
  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("abruptStopCells")
  void oneTaskThenSeveralWithWorkersStoppedAbruptlyLoseAndDuplicateNothing(Cell cell) {
    String name = "abrupt-" + cell.slug();
    String topic = name + ".public.customers";
    int partitions = 4;
    long seed = Workloads.seed("abrupt worker stops [" + cell + "]");
    Random random = new Random(seed);
    Path root = tables.resolve(name);
    LocalConnect cluster = abruptCluster();
    try (ChangeStream stream = new ChangeStream(cluster, topic, partitions)) {
      cluster.createTopic(topic, partitions);
      stream.mixedWorkload(2_000, random);
      stream.flush();
      cluster.startConnector(name, sinkConfig(cell, topic, root, 1), 1);
      awaitCaughtUp(cluster, cell, root, topic, name);

      cluster.startConnector(name, sinkConfig(cell, topic, root, 2), 2);
      updates(stream, random, 1_500);
      cluster.cluster().removeWorker();
      updates(stream, random, 1_500);
      cluster.cluster().addWorker();
      cluster.startConnector(name, sinkConfig(cell, topic, root, 3), 3);
      updates(stream, random, 1_500);
      cluster.cluster().removeWorker();
      updates(stream, random, 1_500);
      cluster.cluster().addWorker();
      cluster.awaitRunning(name, 3);
      cluster.startConnector(name, sinkConfig(cell, topic, root, 1), 1);
      updates(stream, random, 1_000);

      audit(cluster, "abrupt worker stops seed " + seed + " [" + cell + "]", cell, root, topic, name, stream);
      cluster.deleteConnector(name);
    }
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("brokerRestartCells")
  void brokerRestartInTheMiddleOfAStreamLosesAndDuplicatesNothing(Cell cell) {
    String name = "broker-" + cell.slug();
    String topic = name + ".public.customers";
    int partitions = 4;
    connect.createTopic(topic, partitions);
    long seed = Workloads.seed("broker restart [" + cell + "]");
    Random random = new Random(seed);
    Path root = tables.resolve(name);
    try (ChangeStream stream = new ChangeStream(connect, topic, partitions)) {
      stream.mixedWorkload(2_000, random);
      stream.flush();
      connect.startConnector(name, sinkConfig(cell, topic, root, 2), 2);
      awaitFirstCommit(connect, cell, root, topic, name);
      updates(stream, random, 1_000);

      connect.cluster().kafka().restartOnlyBrokers();
      updates(stream, random, 2_000);

      audit(connect, "broker restart seed " + seed + " [" + cell + "]", cell, root, topic, name, stream);
      connect.deleteConnector(name);
    }
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("rawBytesCells")
  void bytesThatAreNotJsonGoToTheDeadLetterQueueAndTheRestLands(Cell cell) {
    String name = "raw-" + cell.slug();
    String topic = name + ".public.customers";
    String dlq = name + "-dlq";
    connect.createTopic(topic, 1);
    connect.createTopic(dlq, 1);
    Path root = tables.resolve(name);
    try (ChangeStream stream = new ChangeStream(connect, topic, 1);
        var raw = connect.cluster().kafka().createProducer(Map.of())) {
      for (long id = 0; id < 50; id++) {
        stream.upsert(id);
      }
      stream.flush();
      raw.send(new ProducerRecord<>(topic, 0, "{\"schema\":".getBytes(StandardCharsets.UTF_8),
          "{\"payload\": {\"op\": \"c\", tru".getBytes(StandardCharsets.UTF_8)));
      raw.send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) 0xff, 0x00, 0x13}));
      raw.flush();
      for (long id = 50; id < 100; id++) {
        stream.upsert(id);
      }
      stream.flush();
      Map<String, String> config = sinkConfig(cell, topic, root, 1);
      config.put("errors.tolerance", "all");
      config.put("errors.deadletterqueue.topic.name", dlq);
      config.put("errors.deadletterqueue.topic.replication.factor", "1");
      connect.startConnector(name, config, 1);

      awaitCaughtUp(connect, cell, root, topic, name);
      assertThat(connect.readRecords(dlq, 2)).hasSize(2);
      audit(connect, "raw bytes [" + cell + "]", cell, root, topic, name, stream);
      connect.deleteConnector(name);
    }
  }

  private static void updates(ChangeStream stream, Random random, int count) {
    for (int i = 0; i < count; i++) {
      long id = Workloads.skewed(3_000, random);
      if (random.nextInt(5) == 0) {
        stream.delete(id, random.nextBoolean());
      } else {
        stream.upsert(id);
      }
    }
    stream.flush();
  }

  private static Map<String, String> sinkConfig(Cell cell, String topic, Path root, int tasks) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", topic);
    config.put("table.root", root.toString());
    config.put("commit.interval.ms", "500");
    return cell.apply(config);
  }

  /** Waits until the sink holds the whole topic, then audits the table against the stream's model or the topic's events. */
  private static void audit(LocalConnect cluster, String scenario, Cell cell, Path root, String topic, String connector,
      ChangeStream stream) {
    awaitCaughtUp(cluster, cell, root, topic, connector);
    Map<TopicPartition, Long> ends = cluster.endOffsets(topic);
    String table = cell.tables().location(root, topic);
    if (cell.isAppend()) {
      TableAudit.check(cell.tables(), scenario, table, events(cluster, topic), ends, connector);
    } else {
      Expected<Long> rows = Expected.upserts(CustomerEvents.COLUMNS, stream.model());
      TableAudit.check(cell.tables(), scenario, table, cell.updatesPartially() ? rows.nonNullColumnsOnly() : rows, ends, connector);
    }
  }

  /**
   * The row an append table must hold for each change event of {@code topic} that converts (bytes
   * that do not are bad input): none for the tombstone right after the delete of its key.
   */
  private static Expected<Position> events(LocalConnect cluster, String topic) {
    Map<Position, Map<String, Object>> events = new HashMap<>();
    Map<Integer, SchemaAndValue[]> previous = new HashMap<>();
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(cluster.readRecords(topic, (int) cluster.recordCount(topic)));
    records.sort(Comparator.comparingInt((ConsumerRecord<byte[], byte[]> record) -> record.partition())
        .thenComparingLong(ConsumerRecord::offset));
    for (ConsumerRecord<byte[], byte[]> record : records) {
      SchemaAndValue key;
      SchemaAndValue value;
      try {
        key = cluster.decodeKey(record);
        value = cluster.decodeValue(record);
      } catch (DataException notJson) {
        previous.remove(record.partition());
        continue;
      }
      SchemaAndValue[] before = previous.put(record.partition(), new SchemaAndValue[] {key, value});
      if (before == null || !RecordLog.isTombstoneOfDelete(key.value(), value.value(), before[0].value(), before[1].value())) {
        events.put(new Position(topic, record.partition(), record.offset()), RecordLog.eventRow(topic, record.partition(),
            record.offset(), record.timestamp(), (Struct) key.value(), (Struct) value.value()));
      }
    }
    return Expected.events(events);
  }

  /** Waits until the table records a position of some partition of {@code topic}: the sink committed once. */
  private static void awaitFirstCommit(LocalConnect cluster, Cell cell, Path root, String topic, String connector) {
    Await.until("a first commit of " + connector, CATCH_UP, () -> positions(cluster, cell, root, topic, connector).values()
        .stream().anyMatch(Optional::isPresent));
  }

  private static void awaitCaughtUp(LocalConnect cluster, Cell cell, Path root, String topic, String connector) {
    Map<TopicPartition, Optional<Long>> expected = new HashMap<>();
    cluster.endOffsets(topic).forEach((partition, end) -> expected.put(partition, Optional.of(end - 1)));
    Await.until("txn versions " + expected, CATCH_UP, () -> positions(cluster, cell, root, topic, connector), expected::equals);
  }

  /** The position the table records of each partition of {@code topic}, empty where none (or no table yet). */
  private static Map<TopicPartition, Optional<Long>> positions(LocalConnect cluster, Cell cell, Path root, String topic,
      String connector) {
    String table = cell.tables().location(root, topic);
    Map<TopicPartition, Optional<Long>> positions = new HashMap<>();
    for (TopicPartition partition : cluster.endOffsets(topic).keySet()) {
      positions.put(partition, cell.tables().position(table, connector + ":" + topic + ":" + partition.partition()));
    }
    return positions;
  }
}
