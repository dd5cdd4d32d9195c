package io.mergesink.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mergesink.localconnect.ConnectRest;
import io.mergesink.localconnect.WorkerProcess;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
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
  private static final int LOG_TAIL_LINES = 60;
  private static final int WHOLE_TOPIC_PARTITIONS = 2;

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
    Workers.Phases phases = new Workers.Phases();
    String id = "compat-" + version.replace('.', '_');
    String topic = id + ".customers";
    Path dir = Workers.cleanDirectory(Path.of(System.getProperty("compat.work.dir"), version));
    Path table = dir.resolve("tables").resolve(topic);
    kafka.createTopic(topic, PARTITIONS);
    Map<String, String> workerProperties = Workers.properties(kafka, id);
    Random random = new Random(version.hashCode());
    try (WorkerProcess first = WorkerProcess.start(dir, "worker-1", SupportedWorkers.classpath(version), Workers.JVM_OPTIONS, workerProperties);
        WorkerProcess second = WorkerProcess.start(dir, "worker-2", SupportedWorkers.classpath(version), Workers.JVM_OPTIONS, workerProperties);
        ChangeStream stream = new ChangeStream(kafka, topic, PARTITIONS)) {
      try {
        ConnectRest rest = Workers.awaitUp(first, version);
        Workers.awaitUp(second, version);
        phases.lap("workers up");
        assertPluginInstalledAndValidating(rest);

        Await.until("PUT /connectors/" + CONNECTOR + "/config accepted", Workers.STARTUP,
            () -> rest.putConnector(CONNECTOR, connectorConfig(topic, dir.resolve("tables"))), config -> true);
        awaitTasksRunning(rest);
        phases.lap("tasks running");

        stream.mixedWorkload(KEYS, random);
        stream.flush();
        Await.until("a first commit in " + table, Workers.CATCH_UP, () -> KernelTables.latestVersion(table.toString()) >= 1);
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
        Workers.awaitUp(first, version);
        phases.lap("killed worker back");
        stream.mixedWorkload(KEYS, random);
        stream.flush();

        Map<TopicPartition, Long> endOffsets = Workers.endOffsets(kafka, topic, PARTITIONS);
        Await.until("the table to equal the model with txn versions at end offset - 1", Workers.CATCH_UP,
            () -> Workers.converged(table.toString(), stream.model(), endOffsets, CONNECTOR));
        phases.lap("caught up");
        TableAudit.Result result = TableAudit.check("Kafka Connect " + version, table,
            Expected.upserts(CustomerEvents.COLUMNS, stream.model()), endOffsets, CONNECTOR);
        Map<String, Double> commits = awaitMetricsOverJmx(rest, version, List.of(first, second));
        assertTasksHoldWholeTopics(rest, id, dir.resolve("whole-topic-tables"), random);
        phases.lap("whole topics");
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

  /**
   * A second connector with the plugin's {@link io.mergesink.connect.WholeTopicAssignor} as its
   * consumers' assignor (loaded from {@code plugin.path}, as users set it): each task holds all
   * partitions of the topics it holds, and both tables land equal to their sources.
   */
  private static void assertTasksHoldWholeTopics(ConnectRest rest, String id, Path tableRoot, Random random) {
    String connector = CONNECTOR + "-whole-topics";
    List<String> topics = List.of(id + ".orders", id + ".lines");
    topics.forEach(topic -> kafka.createTopic(topic, WHOLE_TOPIC_PARTITIONS));
    Map<String, String> config = connectorConfig(String.join(",", topics), tableRoot);
    config.put("consumer.override.partition.assignment.strategy", "io.mergesink.connect.WholeTopicAssignor");
    Await.until("PUT /connectors/" + connector + "/config accepted", Workers.STARTUP,
        () -> rest.putConnector(connector, config), accepted -> true);
    Workers.awaitTasksRunning(rest, connector, TASKS);
    for (String topic : topics) {
      try (ChangeStream stream = new ChangeStream(kafka, topic, WHOLE_TOPIC_PARTITIONS)) {
        stream.mixedWorkload(KEYS / 3, random);
        stream.flush();
        Map<TopicPartition, Long> endOffsets = Workers.endOffsets(kafka, topic, WHOLE_TOPIC_PARTITIONS);
        Await.until(topic + " landed whole in its table", Workers.CATCH_UP,
            () -> Workers.converged(tableRoot.resolve(topic).toString(), stream.model(), endOffsets, connector));
      }
    }
    // awaited: a task that joins after the other landed both tables is given its topic by the rebalance it starts
    Set<Set<TopicPartition>> wholeTopics = topics.stream()
        .map(topic -> Workers.endOffsets(kafka, topic, WHOLE_TOPIC_PARTITIONS).keySet()).collect(Collectors.toSet());
    Await.until("each of the " + TASKS + " tasks holding one whole topic of " + topics, Workers.CATCH_UP,
        () -> Set.copyOf(Workers.groupAssignments(kafka, "connect-" + connector).values()), wholeTopics::equals);
  }

  /** The worker lists the plugin, and its REST validation explains a mistake. */
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

  private static JsonNode awaitTasksRunning(ConnectRest rest) {
    return Workers.awaitTasksRunning(rest, CONNECTOR, TASKS);
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
        Workers.CATCH_UP, () -> commitTotals(workers, awaitTasksRunning(rest)), totals -> true);
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

  private static Map<String, String> connectorConfig(String topic, Path tableRoot) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.mergesink.connect.MergeSinkConnector");
    config.put("tasks.max", Integer.toString(TASKS));
    config.put("topics", topic);
    config.put("table.root", tableRoot.toString());
    config.put("commit.interval.ms", "1000");
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("key.converter.schemas.enable", "true");
    // the plugin's converter for values: it fills Connect Structs directly, which must hold on every worker's Struct
    config.put("value.converter", "io.mergesink.connect.json.DebeziumJsonConverter");
    config.put("value.converter.schemas.enable", "true");
    return config;
  }
}
