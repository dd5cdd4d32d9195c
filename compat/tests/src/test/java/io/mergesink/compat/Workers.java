package io.mergesink.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mergesink.localconnect.ConnectRest;
import io.mergesink.localconnect.WorkerProcess;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
import io.mergesink.localconnect.Await;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;

/**
 * What the tests with real worker processes share: the workers' properties, waiting for a worker
 * and for a connector's tasks, and whether a table has caught up with its topic.
 */
final class Workers {
  /** Worker start-up, plugin scanning included, on a shared 2-core machine. */
  static final Duration STARTUP = Duration.ofMinutes(2);
  static final Duration CATCH_UP = Duration.ofMinutes(3);
  /** Enough for the worker and a MergeSink task with small buffers; two run beside the build. */
  static final List<String> JVM_OPTIONS = List.of("-Xmx512m");
  /** The error of a task started from a previous, larger set of task configs (see {@link #allRunning}). */
  private static final String STALE_TASK_COUNT = "TooManyTasksException";

  private Workers() {}

  /** Properties of a distributed worker of group {@code id} (its topics named after it) on {@code kafka}. */
  static Map<String, String> properties(EmbeddedKafkaCluster kafka, String id) {
    Map<String, String> props = WorkerProcess.distributedProperties(kafka.bootstrapServers(), id);
    props.put("plugin.path", SupportedWorkers.pluginPath().toString());
    return props;
  }

  /** Waits until the worker answers on its REST port and checks that it is the version under test. */
  static ConnectRest awaitUp(WorkerProcess worker, String version) {
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

  /**
   * Waits until {@code connector} runs with {@code tasks} running tasks; a failed task fails the test
   * with its trace, except a task of the previous task count (below), which is restarted.
   */
  static JsonNode awaitTasksRunning(ConnectRest rest, String connector, int tasks) {
    return Await.until("connector " + connector + " and " + tasks + " tasks running", CATCH_UP,
        () -> rest.status(connector), status -> allRunning(rest, connector, status, tasks));
  }

  private static boolean allRunning(ConnectRest rest, String connector, JsonNode status, int tasks) {
    if (!"RUNNING".equals(status.path("connector").path("state").asText()) || status.path("tasks").size() != tasks) {
      return false;
    }
    for (JsonNode task : status.path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        String trace = task.path("trace").asText();
        if (trace.contains(STALE_TASK_COUNT)) {
          // Right after tasks.max is lowered a worker can start a task while the config topic still holds
          // the previous, larger set of task configs; Connect fails it (Worker.checkTasksMax), though the
          // connector generated no more than tasks.max. A restart starts it from the current set.
          rest.restartTask(connector, task.path("id").asInt());
          return false;
        }
        throw new AssertionError("task " + task.path("id") + " failed: " + trace);
      }
      if (!"RUNNING".equals(task.path("state").asText())) {
        return false;
      }
    }
    return true;
  }

  /** Whether Delta Kernel reads the model's rows from {@code table}, each once, and every txn version is its end offset − 1. */
  static boolean converged(String table, Map<Long, Row> model, Map<TopicPartition, Long> endOffsets, String connector) {
    if (!TableAudit.holds(table, Expected.upserts(CustomerEvents.COLUMNS, model))) {
      return false;
    }
    return endOffsets.entrySet().stream().filter(end -> end.getValue() > 0).allMatch(end ->
        KernelTables.txnVersion(table, connector + ":" + end.getKey().topic() + ":" + end.getKey().partition())
            .equals(Optional.of(end.getValue() - 1)));
  }

  static Map<TopicPartition, Long> endOffsets(EmbeddedKafkaCluster kafka, String topic, int partitions) {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    for (int partition = 0; partition < partitions; partition++) {
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

  /** The partitions each member of consumer group {@code group} holds, by member id. */
  static Map<String, Set<TopicPartition>> groupAssignments(EmbeddedKafkaCluster kafka, String group) {
    try (Admin admin = kafka.createAdminClient()) {
      ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
      Map<String, Set<TopicPartition>> assignments = new HashMap<>();
      description.members().forEach(member -> assignments.put(member.consumerId(), member.assignment().topicPartitions()));
      return assignments;
    } catch (ExecutionException e) {
      throw new IllegalStateException("describing consumer group " + group, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted describing consumer group " + group, e);
    }
  }

  /** {@code dir}, emptied of an earlier run's files (kept after a run for inspection). */
  static Path cleanDirectory(Path dir) {
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

  /** Seconds from the start of a run to each step, for the run's summary line. */
  static final class Phases {
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
}
