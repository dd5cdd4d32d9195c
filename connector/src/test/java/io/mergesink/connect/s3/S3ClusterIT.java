package io.mergesink.connect.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.connect.testing.S3SinkOptions;
import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.s3.S3Storage;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.TestS3;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Two Connect workers with several tasks write one table on S3 (S3Proxy) while workers leave
 * abruptly (the worker gives its tasks no time to stop: {@code task.shutdown.graceful.timeout.ms=1},
 * so a task may still be committing while its partitions move) and join, and {@code tasks.max}
 * changes. The table, read by Delta Kernel from S3 through Hadoop's S3A, equals the source: no row
 * lost, none duplicated, every partition's txn version at its end offset − 1, and every file the
 * log references on S3.
 */
class S3ClusterIT {
  private static final Duration CATCH_UP = Duration.ofMinutes(4);
  private static final String BUCKET = "cluster";
  private static final String CONNECTOR = "s3-sink";
  private static final int PARTITIONS = 6;
  private static final int KEYS = 3_000;

  @Test
  void workersLeavingAbruptlyAndJoiningLoseAndDuplicateNothingOnS3() throws Exception {
    String root = TestS3.s3Root(BUCKET);
    TestS3.kernelReadsS3();
    String topic = "s3.public.customers";
    long seed = Long.getLong("soak.seed", System.nanoTime());
    Random random = new Random(seed);
    System.out.println("S3ClusterIT seed " + seed + " (rerun with -Dsoak.seed=" + seed + ")");
    try (LocalConnect connect = LocalConnect.start(2, Map.of("task.shutdown.graceful.timeout.ms", "1"))) {
      connect.createTopic(topic, PARTITIONS);
      run(connect, new ChangeStream(connect, topic, PARTITIONS), topic, root, random, seed);
    }
  }

  private static void run(LocalConnect connect, ChangeStream source, String topic, String root, Random random, long seed)
      throws Exception {
    String table = root + "/" + topic;
    try (ChangeStream stream = source) {
      stream.mixedWorkload(KEYS, random);
      stream.flush();
      connect.startConnector(CONNECTOR, sinkConfig(topic, root, 3), 3);
      Await.until("a first commit to " + table, CATCH_UP, () -> versionOrMinusOne(table) >= 1);

      stream.skewedChanges(KEYS, 1_500, random);
      connect.cluster().addWorker();
      stream.skewedChanges(KEYS, 1_500, random);
      connect.cluster().removeWorker();
      connect.awaitRunning(CONNECTOR, 3);
      stream.skewedChanges(KEYS, 1_500, random);
      connect.startConnector(CONNECTOR, sinkConfig(topic, root, 2), 2);
      stream.skewedChanges(KEYS, 1_500, random);
      connect.cluster().addWorker();
      connect.startConnector(CONNECTOR, sinkConfig(topic, root, 4), 4);
      stream.skewedChanges(KEYS, 1_500, random);
      connect.cluster().removeWorker();
      connect.awaitRunning(CONNECTOR, 4);
      stream.skewedChanges(KEYS, 1_000, random);

      Map<TopicPartition, Long> ends = connect.endOffsets(topic);
      Map<TopicPartition, Optional<Long>> expected = new HashMap<>();
      ends.forEach((partition, end) -> expected.put(partition, Optional.of(end - 1)));
      Await.until("txn versions " + expected + " in " + table, CATCH_UP, () -> txnVersions(table, topic), expected::equals);

      audit("seed " + seed, table, stream.model());
      connect.deleteConnector(CONNECTOR);
    }
  }

  /** Kernel (from S3) reads the model's rows exactly, each key once; every referenced file exists on S3. */
  private static void audit(String context, String table, Map<Long, Row> model) throws Exception {
    List<Row> rows = KernelTables.readRows(table);
    Map<Long, Integer> seen = new HashMap<>();
    rows.forEach(row -> seen.merge((Long) row.get(0), 1, Integer::sum));
    long duplicated = seen.values().stream().mapToLong(count -> count - 1).sum();
    long lost = model.keySet().stream().filter(id -> !seen.containsKey(id)).count();
    System.out.printf("S3 RELIABILITY scenario=cluster rows=%d lost=%d duplicated=%d%n", rows.size(), lost, duplicated);
    assertThat(duplicated).as(context + ": rows duplicated").isZero();
    assertThat(lost).as(context + ": rows lost").isZero();
    assertThat(new HashSet<>(rows)).as(context + ": rows read by Delta Kernel from S3 equal the model")
        .isEqualTo(new HashSet<>(model.values()));
    try (S3Storage storage = S3Storage.create(TestS3.s3Options())) {
      Snapshot snapshot = new SnapshotLoader(storage).latest(table);
      List<String> missing = new ArrayList<>();
      Set<String> checked = new HashSet<>();
      for (AddFile add : snapshot.files().values()) {
        String data = LogPaths.resolve(table, add.path());
        if (checked.add(data) && !storage.exists(data)) {
          missing.add(data);
        }
        if (add.deletionVector() != null && !add.deletionVector().isInline()) {
          String dv = DeletionVectorStore.absolutePath(table, add.deletionVector());
          if (checked.add(dv) && !storage.exists(dv)) {
            missing.add(dv);
          }
        }
      }
      assertThat(missing).as(context + ": files the log references that are not on S3").isEmpty();
    }
  }

  private static Map<String, String> sinkConfig(String topic, String root, int tasks) {
    Map<String, String> config = S3SinkOptions.testServer();
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", topic);
    config.put("table.root", root);
    config.put("commit.interval.ms", "500");
    return config;
  }

  private static long versionOrMinusOne(String table) {
    try {
      return KernelTables.latestVersion(table);
    } catch (RuntimeException e) {
      return -1; // no table yet
    }
  }

  private static Map<TopicPartition, Optional<Long>> txnVersions(String table, String topic) {
    Map<TopicPartition, Optional<Long>> versions = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      Optional<Long> version;
      try {
        version = KernelTables.txnVersion(table, CONNECTOR + ":" + topic + ":" + partition);
      } catch (RuntimeException e) {
        version = Optional.empty(); // no table yet
      }
      versions.put(new TopicPartition(topic, partition), version);
    }
    return versions;
  }
}
