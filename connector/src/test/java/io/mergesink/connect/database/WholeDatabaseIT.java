package io.mergesink.connect.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ConnectRest;
import io.mergesink.localconnect.WorkerProcess;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One connector over a whole database: {@value #TASKS} tasks of one MergeSink connector subscribed
 * with {@code topics.regex} to hundreds or thousands of one-partition topics ({@value
 * #DEFAULT_TABLES} unless system property {@value #TABLES_PROPERTY} says otherwise; 2,000 under
 * {@code -Psoak}), each landed in its own Delta table ({@code table.name.format=${topic}}), by a
 * Connect worker that runs as its own JVM with a small heap ({@value #HEAP}). Most tables get a few
 * changes, one in {@value #HOT_EVERY} thousands; a backlog is produced before the connector starts
 * and more while it runs. The worker must stay up throughout (it exits on an {@link
 * OutOfMemoryError}), the tasks running, and every table must hold its model's rows, read by Delta
 * Kernel, with its partition's end offset as its txn version. The run prints the time to catch up
 * and the worker's heap: the largest used heap sampled, the largest live heap (after a full
 * collection) sampled while catching up, and the live heap with every table idle against the
 * worker's before the connector started, with the class histograms of both live heaps.
 */
class WholeDatabaseIT {
  static final String TABLES_PROPERTY = "whole-database.tables";
  /** The CI case; {@code -Psoak} runs 2,000 tables. */
  private static final int DEFAULT_TABLES = 200;
  private static final String HEAP = "-Xmx512m";
  /**
   * The worker logs through SLF4J's simple logger, as this module's tests do ({@code simplelogger.properties}:
   * warnings, and each table commit's line), not through the Log4j binding some dependency brings.
   */
  private static final String SIMPLE_LOGGER = "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider";
  private static final int TASKS = 2;
  private static final String CONNECTOR = "whole-database";
  /** The group of the connector's consumers, whose committed offsets are the sink's committed offsets. */
  private static final String CONSUMER_GROUP = "connect-" + CONNECTOR;
  /** One table in this many is hot. */
  private static final int HOT_EVERY = 200;
  private static final int HOT_BACKLOG = 2_000;
  private static final int HOT_KEYS = 500;
  private static final int SMALL_KEYS = 5;
  private static final Duration STARTUP = Duration.ofMinutes(2);
  private static final Duration CATCH_UP = Duration.ofMinutes(10);
  /** How often the live heap is taken while catching up: each is a full collection in the worker. */
  private static final Duration LIVE_HEAP_EVERY = Duration.ofSeconds(5);
  private static final Duration HEAP_EVERY = Duration.ofSeconds(1);
  private static final long MIB = 1024 * 1024;
  /** The histogram's header and its largest classes. */
  private static final int HISTOGRAM_LINES = 43;

  @TempDir Path dir;

  @Test
  void oneConnectorLandsEveryTableOfADatabaseInASmallWorkerHeap() throws Exception {
    int tables = Integer.getInteger(TABLES_PROPERTY, DEFAULT_TABLES);
    Path tableRoot = dir.resolve("tables");
    Random random = new Random(42);
    EmbeddedKafkaCluster kafka = new EmbeddedKafkaCluster(1, new Properties());
    kafka.start();
    try (DatabaseStream stream = new DatabaseStream(kafka, tables);
        Admin admin = kafka.createAdminClient()) {
      long setUp = System.nanoTime();
      // The backlog before the worker starts: a broker busy creating a thousand topics' partitions
      // can keep a starting worker from its own topics' metadata past the worker's fixed deadline.
      stream.createTopics();
      for (int table = 0; table < tables; table++) {
        boolean hot = table % HOT_EVERY == 0;
        stream.changes(table, hot ? HOT_BACKLOG : 1 + random.nextInt(6), hot ? HOT_KEYS : SMALL_KEYS, random);
      }
      stream.flush();
      long backlog = stream.events();
      try (WorkerProcess worker = WorkerProcess.start(dir, "worker", WorkerProcess.currentClasspath(),
          List.of(HEAP, SIMPLE_LOGGER, "-XX:+ExitOnOutOfMemoryError", "-XX:+HeapDumpOnOutOfMemoryError", "-XX:HeapDumpPath=" + dir),
          WorkerProcess.distributedProperties(kafka.bootstrapServers(), "whole-database-worker"))) {
        ConnectRest rest = awaitUp(worker);
        long idleWorkerHeap = worker.heapAfterGc().getUsed();
        System.out.printf("whole-database: %d topics, a backlog of %d events and the worker in %d s%n", tables, backlog,
            Duration.ofNanos(System.nanoTime() - setUp).toSeconds());

        long start = System.nanoTime();
        Map<String, String> config = Map.of(
            "connector.class", MergeSinkConnector.class.getName(),
            "tasks.max", Integer.toString(TASKS),
            "topics.regex", DatabaseStream.TOPICS_REGEX,
            "table.root", tableRoot.toString(),
            "table.name.format", "${topic}",
            "commit.interval.ms", "1000");
        // again while the worker still joins its group (409)
        Await.until("the worker to take connector " + CONNECTOR, STARTUP, () -> rest.putConnector(CONNECTOR, config), answer -> true);
        HeapWatch heap = new HeapWatch(worker);
        Await.until("connector " + CONNECTOR + " and " + TASKS + " tasks running", STARTUP,
            () -> running(worker, rest), Boolean.TRUE::equals);

        // While it runs: a few changes to one table in ten, the hot tables more.
        for (int table = 0; table < tables; table += 10) {
          boolean hot = table % HOT_EVERY == 0;
          stream.changes(table, hot ? HOT_BACKLOG / 4 : 1 + random.nextInt(3), hot ? HOT_KEYS : SMALL_KEYS, random);
        }
        stream.flush();
        Map<TopicPartition, Long> ends = stream.endOffsets(admin);
        Await.until("the sink's committed offsets at the end of all " + tables + " topics", CATCH_UP, () -> {
          heap.sample();
          requireRunning(worker, rest);
          return behind(admin, ends);
        }, behind -> behind == 0);
        double catchUpSeconds = (System.nanoTime() - start) / 1e9;
        long idleHeap = worker.heapAfterGc().getUsed();

        System.out.printf("whole-database: %d tables, %d events (%d before the connector started), %s worker,"
                + " %d tasks: caught up in %.1f s; worker heap: peak used %d MiB, peak live while catching up %d MiB"
                + " (sampled every %d s), live before the connector %d MiB, live with every table idle %d MiB"
                + " (%d KiB per table)%n",
            tables, stream.events(), backlog, HEAP, TASKS, catchUpSeconds, heap.peakUsed / MIB, heap.peakLive / MIB,
            LIVE_HEAP_EVERY.toSeconds(), idleWorkerHeap / MIB, idleHeap / MIB, (idleHeap - idleWorkerHeap) / 1024 / tables);
        System.out.println("whole-database: the worker's live heap at its largest sampled, largest classes:\n"
            + String.join("\n", heap.peakHistogram));
        System.out.println("whole-database: the worker's live heap with every table idle, largest classes:\n"
            + String.join("\n", worker.classHistogram(HISTOGRAM_LINES)));

        assertThat(worker.isAlive()).as("the worker process is up (log %s)", worker.log()).isTrue();
        requireRunning(worker, rest);
        assertThat(Files.readAllLines(worker.log())).as("the worker's log")
            .noneMatch(line -> line.contains(OutOfMemoryError.class.getName()));
        long auditStart = System.nanoTime();
        List<String> wrong = audit(tableRoot, stream, ends);
        System.out.printf("whole-database: %d tables read with Delta Kernel in %d s%n", tables,
            Duration.ofNanos(System.nanoTime() - auditStart).toSeconds());
        assertThat(wrong).as("tables that differ from their model").isEmpty();
      }
    } finally {
      kafka.stop();
    }
  }

  /** Waits until the worker answers on its REST port; fails at once when its process exits. */
  private static ConnectRest awaitUp(WorkerProcess worker) {
    ConnectRest rest = new ConnectRest(worker.restUrl());
    Await.until("the worker at " + worker.restUrl() + " to answer", STARTUP, () -> {
      requireAlive(worker);
      return rest.serverInfo();
    }, answer -> true);
    return rest;
  }

  /** Whether the connector and its {@value #TASKS} tasks run; a failed one fails the test with its trace. */
  private static boolean running(WorkerProcess worker, ConnectRest rest) {
    requireAlive(worker);
    JsonNode status = rest.status(CONNECTOR);
    failOnFailure(status);
    return "RUNNING".equals(status.path("connector").path("state").asText()) && status.path("tasks").size() == TASKS
        && StreamSupport.stream(status.path("tasks").spliterator(), false)
            .allMatch(task -> "RUNNING".equals(task.path("state").asText()));
  }

  private static void requireRunning(WorkerProcess worker, ConnectRest rest) {
    if (!running(worker, rest)) {
      throw new AssertionError("connector " + CONNECTOR + " is not running with " + TASKS + " tasks: "
          + rest.status(CONNECTOR));
    }
  }

  private static void failOnFailure(JsonNode status) {
    if ("FAILED".equals(status.path("connector").path("state").asText())) {
      throw new AssertionError("connector " + CONNECTOR + " failed: " + status.path("connector").path("trace").asText());
    }
    for (JsonNode task : status.path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        throw new AssertionError("task " + task.path("id") + " failed: " + task.path("trace").asText());
      }
    }
  }

  private static void requireAlive(WorkerProcess worker) {
    if (!worker.isAlive()) {
      throw new AssertionError("the worker process exited; the end of its log " + worker.log() + ":\n" + worker.logTail(40));
    }
  }

  /** How many of the records before {@code ends} the connector's consumers have not committed yet. */
  private static long behind(Admin admin, Map<TopicPartition, Long> ends) {
    Map<TopicPartition, Long> committed = new HashMap<>();
    try {
      admin.listConsumerGroupOffsets(CONSUMER_GROUP).partitionsToOffsetAndMetadata().get(60, TimeUnit.SECONDS)
          .forEach((partition, offset) -> {
            if (offset != null) {
              committed.put(partition, offset.offset());
            }
          });
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the offsets of " + CONSUMER_GROUP + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the offsets of " + CONSUMER_GROUP, e);
    }
    return ends.entrySet().stream().mapToLong(end -> Math.max(0, end.getValue() - committed.getOrDefault(end.getKey(), 0L)))
        .sum();
  }

  /** The audit of every table against its model ({@link TableAudit}), on two threads; the failures' messages. */
  private static List<String> audit(Path tableRoot, DatabaseStream stream, Map<TopicPartition, Long> ends)
      throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> audits = new ArrayList<>();
      for (int table = 0; table < stream.tables(); table++) {
        String topic = DatabaseStream.topic(table);
        TopicPartition partition = new TopicPartition(topic, 0);
        Expected<Long> expected = Expected.upserts(CustomerEvents.COLUMNS, stream.model(table));
        audits.add(pool.submit(() -> TableAudit.check(topic, tableRoot.resolve(topic), expected,
            Map.of(partition, ends.get(partition)), CONNECTOR)));
      }
      List<String> wrong = new ArrayList<>();
      for (Future<?> audit : audits) {
        try {
          audit.get();
        } catch (ExecutionException e) {
          wrong.add(String.valueOf(e.getCause().getMessage()));
        }
      }
      return wrong;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The worker's heap, sampled over JMX while it catches up, and the class histogram of its live
   * heap when that was at its largest sampled.
   */
  private static final class HeapWatch {
    private final WorkerProcess worker;
    private long peakUsed;
    private long peakLive;
    private List<String> peakHistogram = List.of();
    private long lastSample;
    private long lastLive;

    HeapWatch(WorkerProcess worker) {
      this.worker = worker;
    }

    void sample() {
      long now = System.nanoTime();
      if (now - lastLive >= LIVE_HEAP_EVERY.toNanos()) {
        peakUsed = Math.max(peakUsed, worker.heap().getUsed());
        long live = worker.heapAfterGc().getUsed();
        if (live > peakLive) {
          peakLive = live;
          peakHistogram = worker.classHistogram(HISTOGRAM_LINES);
        }
        lastLive = now;
        lastSample = now;
      } else if (now - lastSample >= HEAP_EVERY.toNanos()) {
        peakUsed = Math.max(peakUsed, worker.heap().getUsed());
        lastSample = now;
      }
    }
  }
}
