package io.mergesink.compat;

import io.mergesink.localconnect.ConnectRest;
import io.mergesink.localconnect.WorkerProcess;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.connect.testing.S3SinkOptions;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.TestS3;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two distributed Kafka Connect workers of the newest supported version, separate processes with
 * the plugin zip installed as users install it, run several tasks writing one table on S3 (S3Proxy,
 * started by the test) while each worker in turn is killed (SIGKILL) in the middle of the stream,
 * with records polled and not yet committed, and started again, and {@code tasks.max} changes
 * between the kills (3 → 4 → 2), so that partitions move between tasks and workers. The table,
 * read by Delta Kernel from S3 through Hadoop's S3A, must equal the source: no row lost, none
 * duplicated, every partition's txn version at its end offset − 1, every file the log references
 * on S3.
 */
class S3WorkerKillIT {
  private static final String CONNECTOR = "mergesink-s3";
  private static final String BUCKET = "worker-kill";
  private static final int PARTITIONS = 6;
  private static final int KEYS = 2_000;
  private static final int CHANGES = 1_500;
  private static final int LOG_TAIL_LINES = 60;

  private static EmbeddedKafkaCluster kafka;

  @BeforeAll
  static void startBroker() {
    kafka = new EmbeddedKafkaCluster(1, new Properties());
    kafka.start();
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.stop();
    }
  }

  @Test
  void workersKilledMidStreamAndTasksMaxChangesLoseAndDuplicateNothingOnS3() {
    List<String> versions = SupportedWorkers.versions();
    String version = versions.get(versions.size() - 1);
    Workers.Phases phases = new Workers.Phases();
    String topic = "s3kill.customers";
    Path dir = Workers.cleanDirectory(Path.of(System.getProperty("compat.work.dir"), "s3-worker-kill"));
    String root = TestS3.s3Root(BUCKET);
    TestS3.kernelReadsS3();
    String table = root + "/" + topic;
    kafka.createTopic(topic, PARTITIONS);
    long seed = Long.getLong("soak.seed", System.nanoTime());
    System.out.println("S3WorkerKillIT seed " + seed + " (rerun with -Dsoak.seed=" + seed + ")");
    Random random = new Random(seed);
    Map<String, String> properties = Workers.properties(kafka, "s3-worker-kill");
    try (WorkerProcess first = WorkerProcess.start(dir, "worker-1", SupportedWorkers.classpath(version), Workers.JVM_OPTIONS, properties);
        WorkerProcess second = WorkerProcess.start(dir, "worker-2", SupportedWorkers.classpath(version), Workers.JVM_OPTIONS, properties);
        ChangeStream stream = new ChangeStream(kafka, topic, PARTITIONS)) {
      try {
        ConnectRest rest = Workers.awaitUp(first, version);
        Workers.awaitUp(second, version);
        phases.lap("workers up");
        configure(rest, topic, root, 3);
        stream.mixedWorkload(KEYS, random);
        stream.flush();
        Await.until("a first commit in " + table, Workers.CATCH_UP, () -> versionOrMinusOne(table) >= 1);
        phases.lap("first commit");

        long uncommittedAtKills = killMidStream(first, version, stream, random, topic, table);
        rest = Workers.awaitUp(first, version);
        configure(rest, topic, root, 4);
        phases.lap("worker-1 killed and back, 4 tasks");
        uncommittedAtKills += killMidStream(second, version, stream, random, topic, table);
        Workers.awaitUp(second, version);
        configure(rest, topic, root, 2);
        phases.lap("worker-2 killed and back, 2 tasks");
        stream.skewedChanges(KEYS, CHANGES, random);

        Map<TopicPartition, Long> endOffsets = Workers.endOffsets(kafka, topic, PARTITIONS);
        Await.until("the table on S3 to equal the model with txn versions at end offset - 1", Workers.CATCH_UP,
            () -> Workers.converged(table, stream.model(), endOffsets, CONNECTOR));
        phases.lap("caught up");
        TableAudit.Result result = TableAudit.check("two workers on S3, kill -9 and rebalances, seed " + seed, table,
            Expected.upserts(CustomerEvents.COLUMNS, stream.model()), endOffsets, CONNECTOR);
        System.out.printf("S3 RELIABILITY scenario=worker-kill worker=%s rows=%d lost=%d duplicated=%d records=%d "
                + "uncommitted-at-kills=%d seconds=%s%n", version, result.rowsChecked(), result.lost(), result.duplicated(),
            endOffsets.values().stream().mapToLong(Long::longValue).sum(), uncommittedAtKills, phases);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(e.getMessage() + "\n--- " + first.log() + " (last lines) ---\n"
            + first.logTail(LOG_TAIL_LINES) + "\n--- " + second.log() + " (last lines) ---\n"
            + second.logTail(LOG_TAIL_LINES), e);
      }
    }
  }

  /**
   * Sends a burst of changes, waits until the sink has committed some of them (its tasks are in the
   * middle of the burst), kills {@code victim}, sends more while it is down, and starts it again.
   *
   * @return how many records of the topic the table's txns had not covered when the worker died
   */
  private static long killMidStream(WorkerProcess victim, String version, ChangeStream stream, Random random, String topic,
      String table) {
    long before = KernelTables.latestVersion(table);
    stream.skewedChanges(KEYS, CHANGES, random);
    Await.until("a commit of the burst in " + table, Workers.CATCH_UP, () -> KernelTables.latestVersion(table) > before);
    Map<TopicPartition, Long> ends = Workers.endOffsets(kafka, topic, PARTITIONS);
    victim.kill();
    long uncommitted = uncommitted(table, ends);
    stream.skewedChanges(KEYS, CHANGES, random);
    victim.start();
    return uncommitted;
  }

  /** Records below {@code ends} that no txn of the table covers yet. */
  private static long uncommitted(String table, Map<TopicPartition, Long> ends) {
    long uncommitted = 0;
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      Optional<Long> committed = KernelTables.txnVersion(table,
          CONNECTOR + ":" + end.getKey().topic() + ":" + end.getKey().partition());
      uncommitted += end.getValue() - committed.map(v -> v + 1).orElse(0L);
    }
    return uncommitted;
  }

  /** Creates or updates the connector with {@code tasks} tasks and waits until they run. */
  private static void configure(ConnectRest rest, String topic, String root, int tasks) {
    Await.until("PUT /connectors/" + CONNECTOR + "/config with tasks.max=" + tasks + " accepted", Workers.STARTUP,
        () -> rest.putConnector(CONNECTOR, connectorConfig(topic, root, tasks)), answer -> true);
    Workers.awaitTasksRunning(rest, CONNECTOR, tasks);
  }


  private static Map<String, String> connectorConfig(String topic, String root, int tasks) {
    Map<String, String> config = S3SinkOptions.testServer();
    config.put("connector.class", "io.mergesink.connect.MergeSinkConnector");
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", topic);
    config.put("table.root", root);
    config.put("commit.interval.ms", "500");
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("key.converter.schemas.enable", "true");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    return config;
  }

  private static long versionOrMinusOne(String table) {
    try {
      return KernelTables.latestVersion(table);
    } catch (RuntimeException e) {
      return -1; // no table yet
    }
  }
}
