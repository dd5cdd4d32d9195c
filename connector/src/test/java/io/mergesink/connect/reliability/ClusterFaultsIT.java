package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.connect.testing.Await;
import io.mergesink.connect.testing.ChangeStream;
import io.mergesink.connect.testing.ConnectHarness;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults only a real Connect cluster has: workers joining and leaving and {@code tasks.max}
 * changing while a stream runs over 8 partitions, a broker restart in the middle of a stream, and
 * bytes that are not JSON at all. One cluster serves every test of the class (each uses its own
 * topic, connector and table root) and ends with the workers it started with.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterFaultsIT {
  private static final Duration CATCH_UP = Duration.ofMinutes(3);
  private static final int WORKERS = 2;

  @TempDir Path tables;
  private ConnectHarness connect;

  @BeforeAll
  void startCluster() {
    connect = ConnectHarness.start(WORKERS);
  }

  @AfterAll
  void stopCluster() {
    connect.close();
  }

  @Test
  void workersAndTasksComingAndGoingLoseAndDuplicateNothing() {
    String topic = "rebalance.public.customers";
    int partitions = 8;
    connect.createTopic(topic, partitions);
    long seed = Workloads.seed("rebalance");
    Random random = new Random(seed);
    Path root = tables.resolve("rebalance");
    try (ChangeStream stream = new ChangeStream(connect, topic, partitions)) {
      stream.mixedWorkload(2_000, random);
      stream.flush();
      connect.startConnector("rebalance", sinkConfig(topic, root, 2), 2);
      awaitFirstCommit(root, topic, "rebalance");

      updates(stream, random, 1_500);
      connect.cluster().addWorker();
      updates(stream, random, 1_500);
      connect.startConnector("rebalance", sinkConfig(topic, root, 4), 4);
      updates(stream, random, 1_500);
      connect.cluster().removeWorker();
      connect.awaitRunning("rebalance", 4);
      updates(stream, random, 1_500);
      connect.startConnector("rebalance", sinkConfig(topic, root, 1), 1);
      updates(stream, random, 1_500);
      connect.startConnector("rebalance", sinkConfig(topic, root, 3), 3);
      updates(stream, random, 1_000);

      awaitCaughtUp(root, topic, "rebalance");
      TableAudit.check("rebalance seed " + seed, root.resolve(topic), stream.model(), connect.endOffsets(topic), "rebalance");
      connect.deleteConnector("rebalance");
    }
  }

  @Test
  void brokerRestartInTheMiddleOfAStreamLosesAndDuplicatesNothing() {
    String topic = "broker.public.customers";
    int partitions = 4;
    connect.createTopic(topic, partitions);
    long seed = Workloads.seed("broker restart");
    Random random = new Random(seed);
    Path root = tables.resolve("broker");
    try (ChangeStream stream = new ChangeStream(connect, topic, partitions)) {
      stream.mixedWorkload(2_000, random);
      stream.flush();
      connect.startConnector("broker", sinkConfig(topic, root, 2), 2);
      awaitFirstCommit(root, topic, "broker");
      updates(stream, random, 1_000);

      connect.cluster().kafka().restartOnlyBrokers();
      updates(stream, random, 2_000);

      awaitCaughtUp(root, topic, "broker");
      TableAudit.check("broker restart seed " + seed, root.resolve(topic), stream.model(), connect.endOffsets(topic), "broker");
      connect.deleteConnector("broker");
    }
  }

  @Test
  void bytesThatAreNotJsonGoToTheDeadLetterQueueAndTheRestLands() {
    String topic = "raw.public.customers";
    String dlq = "raw-dlq";
    connect.createTopic(topic, 1);
    connect.createTopic(dlq, 1);
    Path root = tables.resolve("raw");
    try (ChangeStream stream = new ChangeStream(connect, topic, 1);
        var raw = connect.cluster().kafka().createProducer(Map.of())) {
      for (long id = 0; id < 50; id++) {
        stream.upsert(id);
      }
      stream.flush();
      raw.send(new ProducerRecord<>(topic, 0, "{\"schema\":".getBytes(java.nio.charset.StandardCharsets.UTF_8), "{\"payload\": {\"op\": \"c\", tru".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      raw.send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) 0xff, 0x00, 0x13}));
      raw.flush();
      for (long id = 50; id < 100; id++) {
        stream.upsert(id);
      }
      stream.flush();
      Map<String, String> config = sinkConfig(topic, root, 1);
      config.put("errors.tolerance", "all");
      config.put("errors.deadletterqueue.topic.name", dlq);
      config.put("errors.deadletterqueue.topic.replication.factor", "1");
      connect.startConnector("raw", config, 1);

      awaitCaughtUp(root, topic, "raw");
      assertThat(connect.readRecords(dlq, 2)).hasSize(2);
      TableAudit.check("raw bytes", root.resolve(topic), stream.model(), connect.endOffsets(topic), "raw");
      connect.deleteConnector("raw");
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

  private static Map<String, String> sinkConfig(String topic, Path root, int tasks) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", topic);
    config.put("table.root", root.toString());
    config.put("commit.interval.ms", "500");
    return config;
  }

  private void awaitFirstCommit(Path root, String topic, String connector) {
    Await.until("a first commit of " + connector, CATCH_UP, () -> Files.exists(root.resolve(topic).resolve("_delta_log"))
        && KernelTables.latestVersion(root.resolve(topic).toString()) >= 1);
  }

  private void awaitCaughtUp(Path root, String topic, String connector) {
    Map<TopicPartition, Optional<Long>> expected = new HashMap<>();
    connect.endOffsets(topic).forEach((partition, end) -> expected.put(partition, Optional.of(end - 1)));
    Await.until("txn versions " + expected, CATCH_UP, () -> {
      Map<TopicPartition, Optional<Long>> versions = new HashMap<>();
      for (TopicPartition partition : expected.keySet()) {
        versions.put(partition, Files.exists(root.resolve(topic).resolve("_delta_log"))
            ? KernelTables.txnVersion(root.resolve(topic).toString(), connector + ":" + topic + ":" + partition.partition())
            : Optional.empty());
      }
      return versions;
    }, expected::equals);
  }
}
