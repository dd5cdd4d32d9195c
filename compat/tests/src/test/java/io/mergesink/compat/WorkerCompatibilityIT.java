package io.mergesink.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mergesink.connect.reliability.TableAudit;
import io.mergesink.connect.testing.Await;
import io.mergesink.connect.testing.ChangeStream;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plugin zip, unpacked into {@code plugin.path} as users install it, in two distributed Kafka
 * Connect workers of a supported version, each a separate process started from that version's
 * own jars, against a KRaft broker (Kafka 4.3.1, in the test JVM): the REST API validates its
 * configuration, the connector writes a Debezium change stream into a Delta table that Delta
 * Kernel reads back equal to the source with every partition's txn version at its end offset − 1,
 * also after one worker is killed (SIGKILL) mid-stream and started again, and its tasks' metrics
 * appear over JMX under the same names on every version. CI runs the oldest and the newest
 * version; {@code -Pcompat} runs all (compat/tests/pom.xml).
 */
class WorkerCompatibilityIT {
  private static final String CONNECTOR = "mergesink-compat";
  private static final String PLUGIN = "MergeSinkConnector";
  private static final int PARTITIONS = 4;
  private static final int TASKS = 2;
  private static final int KEYS = 300;
  /** Worker start-up, plugin scanning included, on a shared 2-core machine. */
  private static final Duration STARTUP = Duration.ofMinutes(2);
  private static final Duration CATCH_UP = Duration.ofMinutes(3);
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

  static List<String> versions() {
    return SupportedWorkers.runVersions();
  }

  @ParameterizedTest(name = "Kafka Connect {0}")
  @MethodSource("versions")
  void pluginRunsInDistributedWorkersAndSurvivesAWorkerKill(String version) {
    Phases phases = new Phases();
    String id = "compat-" + version.replace('.', '_');
    String topic = id + ".customers";
    Path dir = cleanDirectory(Path.of(System.getProperty("compat.work.dir"), version));
    Path table = dir.resolve("tables").resolve(topic);
    kafka.createTopic(topic, PARTITIONS);
    Map<String, String> workerProperties = workerProperties(id);
    Random random = new Random(version.hashCode());
    try (WorkerProcess first = WorkerProcess.start(version, dir, "worker-1", workerProperties);
        WorkerProcess second = WorkerProcess.start(version, dir, "worker-2", workerProperties);
        ChangeStream stream = new ChangeStream(kafka, topic, PARTITIONS)) {
      try {
        ConnectRest rest = awaitUp(first, version);
        awaitUp(second, version);
        phases.lap("workers up");
        assertPluginInstalledAndValidating(rest);

        Await.until("PUT /connectors/" + CONNECTOR + "/config accepted", STARTUP,
            () -> rest.putConnector(CONNECTOR, connectorConfig(topic, dir.resolve("tables"))), config -> true);
        awaitTasksRunning(rest, version);
        phases.lap("tasks running");

        stream.mixedWorkload(KEYS, random);
        stream.flush();
        Await.until("a first commit in " + table, CATCH_UP, () -> KernelTables.latestVersion(table.toString()) >= 1);
        phases.lap("first commit");

        first.kill();
        for (int i = 0; i < KEYS / 2; i++) {
          long key = random.nextInt(KEYS);
          if (stream.model().containsKey(key) && random.nextInt(4) == 0) {
            stream.delete(key, random.nextBoolean());
          } else {
            stream.upsert(key);
          }
        }
        stream.flush();
        first.start();
        awaitUp(first, version);
        phases.lap("killed worker back");
        stream.mixedWorkload(KEYS, random);
        stream.flush();

        Map<TopicPartition, Long> endOffsets = endOffsets(topic);
        Await.until("the table to equal the model with txn versions at end offset - 1", CATCH_UP,
            () -> converged(table, stream.model(), endOffsets));
        phases.lap("caught up");
        TableAudit.Result result = TableAudit.check("Kafka Connect " + version, table, stream.model(), endOffsets, CONNECTOR);
        Map<String, Double> commits = awaitMetricsOverJmx(rest, version, List.of(first, second));
        System.out.printf("COMPAT worker=%s rows=%d lost=%d duplicated=%d records=%d commits=%s seconds=%s%n", version,
            result.rowsChecked(), result.lost(), result.duplicated(),
            endOffsets.values().stream().mapToLong(Long::longValue).sum(), commits, phases);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(e.getMessage() + "\n--- " + first.log() + " (last lines) ---\n"
            + first.logTail(LOG_TAIL_LINES) + "\n--- " + second.log() + " (last lines) ---\n"
            + second.logTail(LOG_TAIL_LINES), e);
      }
    }
  }

  /** Seconds from the start of a run to each step, for the run's summary line. */
  private static final class Phases {
    private final long start = System.nanoTime();
    private final Map<String, Long> laps = new LinkedHashMap<>();

    void lap(String step) {
      laps.put(step, Duration.ofNanos(System.nanoTime() - start).toSeconds());
    }

    @Override
    public String toString() {
      return laps.toString();
    }
  }

  /** Waits until the worker answers on its REST port and checks that it is the version under test. */
  private static ConnectRest awaitUp(WorkerProcess worker, String version) {
    ConnectRest rest = new ConnectRest(worker.restUrl());
    JsonNode info = Await.until("Kafka Connect " + version + " at " + worker.restUrl() + " to answer", STARTUP, () -> {
      if (!worker.isAlive()) {
        throw new AssertionError("the worker process exited; log " + worker.log());
      }
      return rest.serverInfo();
    }, answer -> true);
    assertThat(info.path("version").asText()).as("version the worker reports").isEqualTo(version);
    return rest;
  }

  /** The worker lists the plugin, and its REST validation (where issue 15 started) explains a mistake. */
  private static void assertPluginInstalledAndValidating(ConnectRest rest) {
    JsonNode plugins = rest.plugins();
    assertThat(plugins.findValuesAsText("class")).contains("io.mergesink.connect.MergeSinkConnector");
    Map<String, String> config = new HashMap<>();
    config.put("name", "validation-only");
    config.put("connector.class", "io.mergesink.connect.MergeSinkConnector");
    config.put("topics", "t");
    config.put("table.root", "/tmp/never-written");
    config.put("primary.key.fields", "id,id");
    JsonNode validation = rest.validate(PLUGIN, config);
    assertThat(validation.path("error_count").asInt()).as("errors in " + validation).isEqualTo(1);
    List<String> errors = validation.path("configs").findValues("value").stream()
        .filter(value -> "primary.key.fields".equals(value.path("name").asText()))
        .flatMap(value -> Stream.of(value.path("errors").toString())).toList();
    assertThat(errors).singleElement().asString().contains("expected distinct column names");
  }

  private static JsonNode awaitTasksRunning(ConnectRest rest, String version) {
    return Await.until("connector " + CONNECTOR + " and " + TASKS + " tasks running on Kafka Connect " + version,
        CATCH_UP, () -> rest.status(CONNECTOR), WorkerCompatibilityIT::allRunning);
  }

  private static boolean allRunning(JsonNode status) {
    if (!"RUNNING".equals(status.path("connector").path("state").asText()) || status.path("tasks").size() != TASKS) {
      return false;
    }
    for (JsonNode task : status.path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        throw new AssertionError("task " + task.path("id") + " failed: " + task.path("trace").asText());
      }
      if (!"RUNNING".equals(task.path("state").asText())) {
        return false;
      }
    }
    return true;
  }

  private static boolean converged(Path table, Map<Long, Row> model, Map<TopicPartition, Long> endOffsets) {
    List<Row> rows = KernelTables.readRows(table.toString());
    if (rows.size() != model.size() || !new HashSet<>(rows).equals(new HashSet<>(model.values()))) {
      return false;
    }
    return endOffsets.entrySet().stream().filter(end -> end.getValue() > 0).allMatch(end ->
        KernelTables.txnVersion(table.toString(), CONNECTOR + ":" + end.getKey().topic() + ":" + end.getKey().partition())
            .equals(Optional.of(end.getValue() - 1)));
  }

  /**
   * Every task has its MBean {@code kafka.connect:type=plugins,connector=...,task=N} in the worker
   * that runs it (plugin metrics on 4.1+, the plugin's own JMX registration before), and the
   * tasks have committed.
   *
   * @return {@code commit-total} per task
   */
  /**
   * The {@code commit-total} of every task, read over JMX on the worker the connector's status
   * names. Awaited: a worker killed and restarted has the same id, so until its tasks are assigned
   * again (after {@code scheduled.rebalance.max.delay.ms}) the status topic still names it for
   * tasks it does not run yet.
   */
  private static Map<String, Double> awaitMetricsOverJmx(ConnectRest rest, String version, List<WorkerProcess> workers) {
    Map<String, Double> commits = Await.until("the metrics of " + TASKS + " running tasks over JMX on Kafka Connect " + version,
        CATCH_UP, () -> commitTotals(workers, awaitTasksRunning(rest, version)), totals -> true);
    assertThat(commits.keySet()).hasSize(TASKS);
    assertThat(commits.values().stream().mapToDouble(Double::doubleValue).sum()).as("commit-total of the tasks " + commits)
        .isPositive();
    return commits;
  }

  /** @throws IllegalStateException a task's metrics are not (yet) registered on the worker its status names */
  private static Map<String, Double> commitTotals(List<WorkerProcess> workers, JsonNode status) {
    Map<String, Double> commits = new TreeMap<>();
    for (JsonNode task : status.path("tasks")) {
      String taskId = task.path("id").asText();
      WorkerProcess worker = workers.stream().filter(w -> w.workerId().equals(task.path("worker_id").asText()))
          .findFirst().orElseThrow(() -> new AssertionError("task " + taskId + " runs on an unknown worker: " + task));
      commits.put(taskId, commitTotal(worker, taskId));
    }
    return commits;
  }

  private static double commitTotal(WorkerProcess worker, String task) {
    try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(worker.jmxUrl()))) {
      MBeanServerConnection server = connector.getMBeanServerConnection();
      ObjectName name = new ObjectName("kafka.connect:type=plugins,connector=" + CONNECTOR + ",task=" + task);
      if (!server.isRegistered(name)) {
        throw new IllegalStateException(name + " not in " + worker.workerId() + ": "
            + server.queryNames(new ObjectName("kafka.connect:type=plugins,*"), null));
      }
      return ((Number) server.getAttribute(name, "commit-total")).doubleValue();
    } catch (IOException | JMException e) {
      throw new IllegalStateException("reading the metrics of task " + task + " over JMX at " + worker.jmxUrl(), e);
    }
  }

  private static Map<String, String> workerProperties(String id) {
    Map<String, String> props = new HashMap<>();
    props.put("bootstrap.servers", kafka.bootstrapServers());
    props.put("group.id", id);
    props.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("key.converter.schemas.enable", "true");
    props.put("value.converter.schemas.enable", "true");
    props.put("config.storage.topic", id + "-configs");
    props.put("offset.storage.topic", id + "-offsets");
    props.put("status.storage.topic", id + "-status");
    props.put("config.storage.replication.factor", "1");
    props.put("offset.storage.replication.factor", "1");
    props.put("status.storage.replication.factor", "1");
    props.put("offset.storage.partitions", "1");
    props.put("status.storage.partitions", "1");
    // How often a sink task's preCommit runs, and how long the leader waits for a lost worker (default 5 minutes).
    props.put("offset.flush.interval.ms", "1000");
    props.put("scheduled.rebalance.max.delay.ms", "10000");
    // The killed worker's sink consumers hold their partitions until their session times out (default 45 s).
    props.put("consumer.session.timeout.ms", "10000");
    props.put("consumer.heartbeat.interval.ms", "3000");
    props.put("plugin.path", SupportedWorkers.pluginPath().toString());
    // As config/connect-distributed.properties: the plugin's ServiceLoader manifest, no scan of its jars by
    // reflection (the default, hybrid_warn, adds 30-50 s to every worker start with this plugin here).
    props.put("plugin.discovery", "service_load");
    return props;
  }

  private static Map<String, String> connectorConfig(String topic, Path tableRoot) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.mergesink.connect.MergeSinkConnector");
    config.put("tasks.max", Integer.toString(TASKS));
    config.put("topics", topic);
    config.put("table.root", tableRoot.toString());
    config.put("commit.interval.ms", "1000");
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("key.converter.schemas.enable", "true");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    return config;
  }

  private static Map<TopicPartition, Long> endOffsets(String topic) {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      TopicPartition tp = new TopicPartition(topic, partition);
      try {
        offsets.put(tp, kafka.endOffset(tp));
      } catch (TimeoutException | ExecutionException e) {
        throw new IllegalStateException("reading the end offset of " + tp, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted reading the end offset of " + tp, e);
      }
    }
    return offsets;
  }

  private static Path cleanDirectory(Path dir) {
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(file);
          }
        }
      }
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cleaning " + dir, e);
    }
  }
}
