package io.mergesink.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic whose partition count grows while the sink runs (docs/design.md, "Topics that grow"),
 * with the producer hashing keys as Kafka's default partitioner does, so that keys written before
 * move to other partitions, with the default {@code lookup.scope=partition}. The sink must notice
 * and widen every writer's key lookup for the topic: no key may end up with two live rows.
 */
class TopicGrowthIT {
  private static final String TOPIC = MergeSinkIT.TOPIC;
  private static final String CONNECTOR = MergeSinkIT.CONNECTOR;
  private static final int KEYS = 3_000;
  /** The sink's column of the source time that orders the changes of a table whose topic grew. */
  private static final String SOURCE_TS_MS = "__source_ts_ms";

  @TempDir Path tables;
  private LocalConnect connect;

  @BeforeEach
  void startCluster() {
    // sink consumers see new partitions within a second instead of the default five minutes
    connect = LocalConnect.start(1, Map.of("consumer.metadata.max.age.ms", "1000"));
  }

  @AfterEach
  void stopCluster() {
    connect.close();
  }

  /** Two partitions grown to six: keys move from the old partitions into new ones, owned by tasks that never saw them. */
  @Test
  void keysMovingIntoNewPartitionsKeepOneLiveRow() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (ChangeStream stream = streamOfTwoPartitionsCaughtUp(random, 2)) {
      grow(6);
      stream.grow(6);
      changesOfOldKeys(stream, random);
      awaitCaughtUp();

      assertTableEquals(stream.model(), "2 -> 6, seed " + seed);
      assertThat(tableScopeTopics()).as("the table records that the topic's keys may be in any partition").contains(TOPIC);
    }
  }

  /**
   * Two partitions grown to three, one task per partition: keys also move between the old
   * partitions, whose tasks learn from the table that the topic grew. Changes of moved keys come
   * once the table says so (a change an old partition commits before that is the documented race).
   */
  @Test
  void keysMovingBetweenOldPartitionsKeepOneLiveRow() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (ChangeStream stream = streamOfTwoPartitionsCaughtUp(random, 3)) {
      grow(3);
      Await.until("the table to widen its key lookup for " + TOPIC, MergeSinkIT.CATCH_UP, this::tableScopeTopics,
          topics -> topics.contains(TOPIC));
      stream.grow(3);
      changesOfOldKeys(stream, random);
      awaitCaughtUp();

      assertTableEquals(stream.model(), "2 -> 3, seed " + seed);
    }
  }

  /**
   * Two partitions grown to six while the sink is still reading a backlog of them: moved keys are
   * updated, deleted and re-inserted in their new partitions before their older changes in the old
   * ones are read. The table must end as the source, ordered by the changes' source time.
   */
  @Test
  void keysMovingWhileTheSinkLagsLandInSourceOrder() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    connect.createTopic(TOPIC, 2);
    try (ChangeStream stream = ChangeStream.hashed(connect, TOPIC, 2)) {
      stream.mixedWorkload(KEYS, random);
      stream.flush();
      connect.startConnector(CONNECTOR, sinkConfig(2), 2);
      grow(6);
      stream.grow(6);
      changesOfOldKeys(stream, random);
      awaitCaughtUp();

      assertTableEquals(stream.model(), "2 -> 6 while lagging, seed " + seed);
      assertThat(KernelTables.schema(tables.resolve(TOPIC).toString()).fieldNames()).as("ordered by the changes' source time")
          .contains(SOURCE_TS_MS);
    }
  }

  /** A mixed workload in a topic of two partitions, hashed like Kafka's producer, and the sink with {@code tasks} tasks caught up with it. */
  private ChangeStream streamOfTwoPartitionsCaughtUp(Random random, int tasks) {
    connect.createTopic(TOPIC, 2);
    ChangeStream stream = ChangeStream.hashed(connect, TOPIC, 2);
    stream.mixedWorkload(KEYS, random);
    stream.flush();
    connect.startConnector(CONNECTOR, sinkConfig(tasks), tasks);
    awaitCaughtUp();
    return stream;
  }

  /** Updates and deletes of keys written before the growth, and new keys. */
  private static void changesOfOldKeys(ChangeStream stream, Random random) {
    for (int i = 0; i < KEYS; i++) {
      long id = random.nextInt(KEYS + KEYS / 5);
      if (random.nextInt(5) == 0 && stream.model().containsKey(id)) {
        stream.delete(id, random.nextBoolean());
      } else {
        stream.upsert(id);
      }
    }
    stream.flush();
  }

  private void grow(int partitions) {
    try (Admin admin = connect.cluster().kafka().createAdminClient()) {
      admin.createPartitions(Map.of(TOPIC, NewPartitions.increaseTo(partitions))).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot grow " + TOPIC + " to " + partitions + " partitions: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while growing " + TOPIC, e);
    }
  }

  private void awaitCaughtUp() {
    Map<TopicPartition, Long> ends = connect.endOffsets(TOPIC);
    Await.until("every partition's txn version at its end offset - 1 " + ends, MergeSinkIT.CATCH_UP, () -> {
      connect.status(CONNECTOR).tasks().stream().filter(task -> "FAILED".equals(task.state())).findFirst().ifPresent(task -> {
        throw new AssertionError("task " + task.id() + " failed: " + task.trace());
      });
      return ends.entrySet().stream().filter(end -> end.getValue() > 0).allMatch(end -> txnVersion(end.getKey()) == end.getValue() - 1);
    });
  }

  private long txnVersion(TopicPartition partition) {
    if (!tables.resolve(TOPIC).resolve("_delta_log").toFile().exists()) {
      return -1;
    }
    return KernelTables.txnVersion(tables.resolve(TOPIC).toString(), CONNECTOR + ":" + TOPIC + ":" + partition.partition()).orElse(-1L);
  }

  /**
   * Asserts the table holds {@code model}'s rows, one per key. The source time that orders a table
   * whose topic grew ({@value #SOURCE_TS_MS}, the sink's own column) is left out.
   */
  private void assertTableEquals(Map<Long, Row> model, String context) {
    String table = tables.resolve(TOPIC).toString();
    int sourceTime = KernelTables.schema(table).indexOf(SOURCE_TS_MS);
    List<Row> rows = KernelTables.readRows(table).stream().map(row -> sourceTime < 0 ? row : withoutColumn(row, sourceTime)).toList();
    Map<Long, Long> rowsPerKey = rows.stream().collect(Collectors.groupingBy(row -> (Long) row.get(0), Collectors.counting()));
    assertThat(rowsPerKey.entrySet().stream().filter(key -> key.getValue() > 1).map(Map.Entry::getKey).toList())
        .as(context + ": keys with two live rows").isEmpty();
    assertThat(new HashSet<>(rows)).as(context + ": rows read by Delta Kernel").isEqualTo(new HashSet<>(model.values()));
  }

  private static Row withoutColumn(Row row, int column) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < row.size(); i++) {
      if (i != column) {
        values.add(row.get(i));
      }
    }
    return Row.of(values.toArray());
  }

  private String tableScopeTopics() {
    try {
      return DeltaTable.forPath(new LocalStorage(), tables.resolve(TOPIC).toString()).snapshot().metadata().configuration()
          .getOrDefault("mergesink.lookup.tableScopeTopics", "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Map<String, String> sinkConfig(int tasks) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", TOPIC);
    config.put("table.root", tables.toString());
    config.put("commit.interval.ms", "500");
    return config;
  }
}
