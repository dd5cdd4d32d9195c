package io.mergesink.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real {@link KafkaStreams} instances on a real KRaft broker share a 4-partition Debezium topic:
 * one instance runs in a JVM of its own and is killed (SIGKILL) in the middle of the stream, with
 * changes buffered and not committed, then started again; a third instance joins mid-stream. The
 * table read back with Delta Kernel equals the source model (no change lost, none applied twice),
 * and every partition's txn version is its end offset − 1; under {@code at_least_once} and
 * {@code exactly_once_v2}. And a frozen instance that thaws as a zombie commits nothing stale.
 *
 * <p>The {@code soak} profile runs every scenario under both processing guarantees; CI runs each
 * under one, the scenarios sharing them out: the zombie under {@code at_least_once}, where only the
 * sink's positions fence it (no Kafka transaction does), the crashes under {@code exactly_once_v2},
 * where a killed instance leaves a transaction to abort.
 */
class StreamsFailoverIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 400;
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  private static EmbeddedKafkaCluster kafka;

  @TempDir
  Path dir;

  static Stream<String> atLeastOnceInCi() {
    return guarantees(StreamsConfig.AT_LEAST_ONCE);
  }

  static Stream<String> exactlyOnceV2InCi() {
    return guarantees(StreamsConfig.EXACTLY_ONCE_V2);
  }

  /** Both guarantees with {@code -Dstreams.guarantees=all} (the soak profile), else the one CI runs. */
  private static Stream<String> guarantees(String inCi) {
    return "all".equals(System.getProperty("streams.guarantees"))
        ? Stream.of(StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2) : Stream.of(inCi);
  }

    @BeforeAll
  static void startKafka() {
    Properties broker = new Properties();
    broker.put("offsets.topic.replication.factor", "1");
    broker.put("transaction.state.log.replication.factor", "1");
    broker.put("transaction.state.log.min.isr", "1");
    broker.put("group.initial.rebalance.delay.ms", "0");
    kafka = new EmbeddedKafkaCluster(1, broker);
    kafka.start();
  }

  @AfterAll
  static void stopKafka() {
    kafka.stop();
  }

  @ParameterizedTest
  @MethodSource("exactlyOnceV2InCi")
  void anInstanceKilledMidStreamAndOneAddedLandEveryChangeExactlyOnce(String guarantee) throws Exception {
    String topic = "customers-" + guarantee.replace('_', '-');
    String appId = "failover-" + guarantee.replace('_', '-');
    kafka.createTopic(topic, PARTITIONS);
    Path root = dir.resolve("tables");
    Path table = root.resolve(topic);
    Random random = new Random(13);
    try (ChangeStream changes = new ChangeStream(kafka, topic, PARTITIONS);
        ChildInstance first = ChildInstance.start(settings(topic, appId, guarantee, root, "first"), dir.resolve("first.log"));
        KafkaStreams second = StreamsApp.start(settings(topic, appId, guarantee, root, "second"))) {
      first.awaitRunning(TIMEOUT);
      changes.mixedWorkload(KEYS, random);
      changes.flush();
      // both instances committed positions: the first one has changes in the table to lose if its kill were not handled
      Await.until("a txn version for every partition in " + table, TIMEOUT, () -> Files.exists(table.resolve("_delta_log"))
          && txnVersions(table, topic, appId).values().stream().allMatch(Optional::isPresent));

      for (long id = 0; id < KEYS / 2; id++) {
        changes.upsert(id);
      }
      first.kill(); // mid-stream: records in flight and changes buffered since its last commit
      for (long id = KEYS / 2; id < KEYS; id++) {
        changes.upsert(id);
      }
      changes.flush();

      try (ChildInstance restarted = ChildInstance.start(settings(topic, appId, guarantee, root, "first"), dir.resolve("restarted.log"))) {
        restarted.awaitRunning(TIMEOUT);
        changes.mixedWorkload(KEYS, random);
        try (KafkaStreams added = StreamsApp.start(settings(topic, appId, guarantee, root, "added"))) {
          changes.mixedWorkload(KEYS, random);
          changes.flush();
          Map<TopicPartition, Long> ends = endOffsets(topic);
          Await.until("every partition's txn version at its end offset - 1 " + ends, TIMEOUT,
              () -> txnVersions(table, topic, appId), versions -> ends.entrySet().stream()
                  .allMatch(end -> versions.get(end.getKey()).equals(Optional.of(end.getValue() - 1))));
          TableAudit.check("streams " + guarantee + ": one instance killed and restarted, one added", table, Expected.upserts(CustomerEvents.COLUMNS, changes.model()), ends,
              appId);
        }
      }
    }
  }

  /**
   * An instance frozen (SIGSTOP) in the middle of the stream, with changes buffered, loses its
   * tasks to the other instance once its session times out; the other one lands newer changes of
   * the same keys. Thawed (SIGCONT), the frozen instance is a zombie that still holds its tasks and
   * their stale changes until it notices: whatever it commits then must be refused, so the table
   * equals the source model (and every txn version is its end offset − 1) right after the zombie
   * rejoined, and again after a last workload both instances share.
   */
  @ParameterizedTest
  @MethodSource("atLeastOnceInCi")
  void aFrozenInstanceThatThawsAfterItsTasksMovedCommitsNothingStale(String guarantee) throws Exception {
    String topic = "zombie-" + guarantee.replace('_', '-');
    String appId = "zombie-" + guarantee.replace('_', '-');
    kafka.createTopic(topic, PARTITIONS);
    Path root = dir.resolve("tables");
    Path table = root.resolve(topic);
    Random random = new Random(19);
    try (ChangeStream changes = new ChangeStream(kafka, topic, PARTITIONS);
        ChildInstance zombie = ChildInstance.start(settings(topic, appId, guarantee, root, "zombie"), dir.resolve("zombie.log"));
        KafkaStreams survivor = StreamsApp.start(settings(topic, appId, guarantee, root, "survivor"));
        Admin admin = kafka.createAdminClient()) {
      zombie.awaitRunning(TIMEOUT);
      changes.mixedWorkload(KEYS, random);
      changes.flush();
      Await.until("a txn version for every partition in " + table, TIMEOUT, () -> Files.exists(table.resolve("_delta_log"))
          && txnVersions(table, topic, appId).values().stream().allMatch(Optional::isPresent));
      int members = groupMembers(admin, appId);

      for (long id = 0; id < KEYS; id++) {
        changes.upsert(id);
      }
      changes.flush();
      zombie.freeze(); // with whatever it read of these upserts buffered
      for (long id = 0; id < KEYS; id++) {
        changes.upsert(id); // newer versions, for the survivor to land
      }
      changes.flush();
      Map<TopicPartition, Long> ends = endOffsets(topic);
      Await.until("the survivor landing every partition up to its end offset " + ends, TIMEOUT,
          () -> txnVersions(table, topic, appId), versions -> ends.entrySet().stream()
              .allMatch(end -> versions.get(end.getKey()).equals(Optional.of(end.getValue() - 1))));

      zombie.thaw();
      Await.until("the thawed instance back in the group with " + members + " members", TIMEOUT,
          () -> groupMembers(admin, appId) == members);
      TableAudit.check("streams " + guarantee + ": a frozen instance thawed after its tasks moved", table, Expected.upserts(CustomerEvents.COLUMNS, changes.model()), ends,
          appId);

      changes.mixedWorkload(KEYS, random);
      changes.flush();
      Map<TopicPartition, Long> finalEnds = endOffsets(topic);
      Await.until("every partition's txn version at its end offset - 1 " + finalEnds, TIMEOUT,
          () -> txnVersions(table, topic, appId), versions -> finalEnds.entrySet().stream()
              .allMatch(end -> versions.get(end.getKey()).equals(Optional.of(end.getValue() - 1))));
      TableAudit.check("streams " + guarantee + ": both instances after the zombie rejoined", table, Expected.upserts(CustomerEvents.COLUMNS, changes.model()), finalEnds,
          appId);
    }
  }

  /**
   * A primary-key change ({@link KeyChangeEvents}) cut by a crash: the instance committed its
   * offsets past the old key's delete and tombstone, holding the delete (the table still has the
   * old row), and is killed before the create arrives. The next instance restores the delete from
   * the changelog and lands it with the create, which keeps the old row's unchanged TOAST column.
   * The killed instance's own commit interval is long, so that it holds the delete until killed.
   */
  @ParameterizedTest
  @MethodSource("exactlyOnceV2InCi")
  void aKeyChangeCutByACrashLandsWholeOnTheNextInstance(String guarantee) throws Exception {
    String topic = "key-change-" + guarantee.replace('_', '-');
    String appId = "key-change-" + guarantee.replace('_', '-');
    kafka.createTopic(topic, 1);
    Path root = dir.resolve("tables");
    String table = root.resolve(topic).toString();
    TopicPartition partition = new TopicPartition(topic, 0);
    try (Producer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
            new ByteArraySerializer(), new ByteArraySerializer());
        Admin admin = kafka.createAdminClient()) {
      byte[] oldKey = KeyChangeEvents.key(topic, 3);
      try (ChildInstance crashing = ChildInstance.start(settings(topic, appId, guarantee, root, "crashing")
          .withEngineCommitInterval(Duration.ofHours(1)), dir.resolve("crashing.log"))) {
        crashing.awaitRunning(TIMEOUT);
        producer.send(new ProducerRecord<>(topic, 0, oldKey, KeyChangeEvents.envelope(topic, CustomerEvents.upsert("c", 3, 1)))).get();
        producer.send(new ProducerRecord<>(topic, 0, null, oldKey, KeyChangeEvents.deleteEnvelope(topic, 3),
            KeyChangeEvents.deleteHeaders(topic, 1001))).get();
        producer.send(new ProducerRecord<>(topic, 0, oldKey, null)).get();
        Await.until("offsets committed past the old key's tombstone", TIMEOUT, () -> committedOffset(admin, appId, partition) == 3L);
        crashing.kill();
      }
      assertThat(KernelTables.readRows(table)).as("the held delete").containsExactly(Row.of(CustomerEvents.expectedValues(3, 1)));

      producer.send(new ProducerRecord<>(topic, 0, null, KeyChangeEvents.key(topic, 1001), KeyChangeEvents.createEnvelope(topic, 1001),
          KeyChangeEvents.createHeaders(topic, 3))).get();
      try (KafkaStreams next = StreamsApp.start(settings(topic, appId, guarantee, root, "next"))) {
        Await.until("the create landed", TIMEOUT, () -> KernelTables.txnVersion(table, appId + ":" + topic + ":0"),
            version -> version.equals(Optional.of(3L)));
      }
    }
    assertThat(KernelTables.readRows(table)).containsExactly(KeyChangeEvents.expectedRow(3, 1001));
  }

  /** The offset the consumer group committed for {@code partition}, or -1 for none. */
  private static long committedOffset(Admin admin, String groupId, TopicPartition partition) {
    try {
      OffsetAndMetadata committed = admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get().get(partition);
      return committed == null ? -1 : committed.offset();
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot list the offsets of consumer group " + groupId, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing the offsets of consumer group " + groupId, e);
    }
  }

  /** The members of a stable consumer group, or -1 while it rebalances. */
  private static int groupMembers(Admin admin, String groupId) {
    try {
      ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(groupId)).all().get().get(groupId);
      return group.groupState() == GroupState.STABLE ? group.members().size() : -1;
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot describe consumer group " + groupId, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while describing consumer group " + groupId, e);
    }
  }

  /**
   * Streams commits a task's offsets only after the store flushed the task's changes to the table:
   * each time the consumer committed, the table held every record below the committed offsets.
   */
  @Test
  void offsetsAreCommittedOnlyAfterTheTableHoldsTheirRecords() throws Exception {
    String topic = "customers-offsets";
    String appId = "offsets-after-table";
    kafka.createTopic(topic, PARTITIONS);
    Path root = dir.resolve("tables");
    Path table = root.resolve(topic);
    StreamsApp.Settings settings = settings(topic, appId, StreamsConfig.AT_LEAST_ONCE, root, "checked");
    Properties properties = StreamsApp.properties(settings);
    properties.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG), TableAheadOfOffsets.class.getName());
    properties.put(StreamsConfig.mainConsumerPrefix(TableAheadOfOffsets.TABLE), table.toString());
    properties.put(StreamsConfig.mainConsumerPrefix(TableAheadOfOffsets.APP_ID), appId);
    Random random = new Random(17);
    try (ChangeStream changes = new ChangeStream(kafka, topic, PARTITIONS);
        KafkaStreams streams = new KafkaStreams(StreamsApp.topology(settings), properties)) {
      streams.start();
      for (int round = 0; round < 5; round++) {
        changes.mixedWorkload(KEYS, random);
        changes.flush();
        int before = TableAheadOfOffsets.commitsChecked();
        Await.until("two more offset commits", TIMEOUT, () -> TableAheadOfOffsets.commitsChecked() >= before + 2 * PARTITIONS);
      }
      Map<TopicPartition, Long> ends = endOffsets(topic);
      Await.until("every partition's txn version at its end offset - 1 " + ends, TIMEOUT,
          () -> txnVersions(table, topic, appId), versions -> ends.entrySet().stream()
              .allMatch(end -> versions.get(end.getKey()).equals(Optional.of(end.getValue() - 1))));
    }
    assertThat(TableAheadOfOffsets.violations()).as("offset commits ahead of the table").isEmpty();
  }

  private StreamsApp.Settings settings(String topic, String appId, String guarantee, Path root, String instance) throws Exception {
    Path stateDir = dir.resolve("state-" + instance);
    Files.createDirectories(stateDir);
    return new StreamsApp.Settings(kafka.bootstrapServers(), topic, appId, guarantee, root, stateDir);
  }

  private static Map<TopicPartition, Optional<Long>> txnVersions(Path table, String topic, String appId) {
    Map<TopicPartition, Optional<Long>> versions = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      versions.put(new TopicPartition(topic, partition), KernelTables.txnVersion(table.toString(), appId + ":" + topic + ":" + partition));
    }
    return versions;
  }

  private static Map<TopicPartition, Long> endOffsets(String topic) throws InterruptedException, ExecutionException, TimeoutException {
    Map<TopicPartition, Long> ends = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      TopicPartition tp = new TopicPartition(topic, partition);
      ends.put(tp, kafka.endOffset(tp));
    }
    return ends;
  }
}
