package io.mergesink.connect.sink;


import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MergeSink in a real Connect cluster (KRaft broker, workers): Debezium change events for 10k keys
 * over 4 partitions, 2 tasks; the Delta table read by Delta Kernel must equal the source table and
 * hold, for every partition, the topic's end offset − 1 as its txn version.
 */
class MergeSinkIT {
  static final String TOPIC = "pg.public.customers";
  static final String CONNECTOR = "mergesink";
  static final int PARTITIONS = 4;
  static final Duration CATCH_UP = Duration.ofMinutes(3);

  @TempDir Path tables;
  private LocalConnect connect;

  @BeforeEach
  void startCluster() {
    connect = LocalConnect.start(1);
    connect.createTopic(TOPIC, PARTITIONS);
  }

  @AfterEach
  void stopCluster() {
    connect.close();
  }

  @Test
  void tableEqualsSourceAfterInsertsUpdatesAndDeletes() {
    long seed = System.nanoTime();
    try (ChangeStream stream = new ChangeStream(connect, TOPIC, PARTITIONS)) {
      stream.mixedWorkload(10_000, new Random(seed));
      stream.flush();
      connect.startConnector(CONNECTOR, sinkConfig(), 2);

      awaitCaughtUp();
      assertTableEquals(stream.model(), "seed " + seed);
    }
  }

  @Test
  void restartAndRebalanceInTheMiddleLoseAndDuplicateNothing() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (ChangeStream stream = new ChangeStream(connect, TOPIC, PARTITIONS)) {
      stream.mixedWorkload(4_000, random);
      stream.flush();
      connect.startConnector(CONNECTOR, sinkConfig(), 2);
      Await.until("a first commit", CATCH_UP, () -> txnVersions().values().stream().anyMatch(Optional::isPresent));

      connect.stopConnector(CONNECTOR);
      for (int i = 0; i < 3_000; i++) {
        long id = random.nextInt(6_000);
        if (random.nextInt(4) == 0) {
          stream.delete(id, random.nextBoolean());
        } else {
          stream.upsert(id);
        }
      }
      stream.flush();
      connect.cluster().resumeConnector(CONNECTOR);
      connect.awaitRunning(CONNECTOR, 2);
      connect.cluster().addWorker();
      for (int i = 0; i < 3_000; i++) {
        stream.upsert(random.nextInt(8_000));
      }
      stream.flush();

      awaitCaughtUp();
      assertTableEquals(stream.model(), "seed " + seed);
    }
  }

  Map<String, String> sinkConfig() {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", "2");
    config.put("topics", TOPIC);
    config.put("table.root", tables.toString());
    config.put("commit.interval.ms", "500");
    return config;
  }

  String tablePath() {
    return tables.resolve(TOPIC).toString();
  }

  Map<TopicPartition, Optional<Long>> txnVersions() {
    Map<TopicPartition, Optional<Long>> versions = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      Optional<Long> version = tables.resolve(TOPIC).resolve("_delta_log").toFile().exists()
          ? KernelTables.txnVersion(tablePath(), CONNECTOR + ":" + TOPIC + ":" + partition)
          : Optional.empty();
      versions.put(new TopicPartition(TOPIC, partition), version);
    }
    return versions;
  }

  /** Waits until the table's txn of every partition is the partition's last offset. */
  void awaitCaughtUp() {
    Map<TopicPartition, Optional<Long>> expected = new HashMap<>();
    connect.endOffsets(TOPIC).forEach((partition, end) -> expected.put(partition, Optional.of(end - 1)));
    Await.until("txn versions " + expected, CATCH_UP, this::txnVersions, expected::equals);
  }

  void assertTableEquals(Map<Long, Row> model, String context) {
    TableAudit.assertHolds(context, tablePath(), Expected.upserts(CustomerEvents.COLUMNS, model));
  }
}
