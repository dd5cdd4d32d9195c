package io.mergesink.connect.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.runtime.AbstractStatus;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.storage.ConverterType;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * A Kafka cluster (one KRaft broker) and Connect workers (distributed mode) in the test JVM,
 * around Kafka's {@link EmbeddedConnectCluster}, with the helpers the integration tests share.
 *
 * <p>Workers find connectors on the test class path with {@code plugin.discovery=hybrid_fail}, so
 * a connector needs its {@code META-INF/services} entry. Their default converters are
 * {@link JsonConverter} with schemas enabled, for keys and values, as in {@code config/}. The broker
 * does not create topics on first use: create them with {@link #createTopic(String, int)}, or let
 * a source connector create them with {@code topic.creation.default.*} options.
 *
 * <p>The caller owns the harness and must {@link #close()} it (stops workers and broker).
 */
public final class ConnectHarness implements AutoCloseable {
  /** How long connector state changes and topic reads may take before a test fails. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  /** Worker's offset commit interval: sink tasks get {@code preCommit} calls this often. */
  private static final String OFFSET_FLUSH_INTERVAL_MS = "1000";
  private static final Duration CONSUMER_POLL = Duration.ofMillis(200);
  private static final long ADMIN_TIMEOUT_SECONDS = 30;

  private final EmbeddedConnectCluster cluster;
  private final KafkaProducer<byte[], byte[]> producer;
  private final JsonConverter keyConverter = jsonConverter(ConverterType.KEY);
  private final JsonConverter valueConverter = jsonConverter(ConverterType.VALUE);

  private ConnectHarness(EmbeddedConnectCluster cluster) {
    this.cluster = cluster;
    this.producer = cluster.kafka().createProducer(Map.of(ProducerConfig.ACKS_CONFIG, "all"));
  }

  /** Starts one broker and {@code workers} Connect workers with the default worker options. */
  public static ConnectHarness start(int workers) {
    return start(workers, Map.of());
  }

  /**
   * Starts one broker and {@code workers} Connect workers and waits until all workers are up.
   *
   * @param workerProps worker options that replace the harness defaults (converters, offset
   *     flush interval)
   */
  public static ConnectHarness start(int workers, Map<String, String> workerProps) {
    Map<String, String> props = new HashMap<>();
    props.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG, JsonConverter.class.getName());
    props.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG, JsonConverter.class.getName());
    props.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG + "." + JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    props.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG + "." + JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    props.put(WorkerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, OFFSET_FLUSH_INTERVAL_MS);
    props.putAll(workerProps);
    EmbeddedConnectCluster cluster = new EmbeddedConnectCluster.Builder()
        .name("mergesink-it")
        .numWorkers(workers)
        .numBrokers(1)
        .brokerProps(new Properties())
        .workerProps(props)
        .build();
    cluster.start();
    ConnectHarness harness = new ConnectHarness(cluster);
    try {
      cluster.assertions().assertExactlyNumWorkersAreUp(workers, "Connect workers did not start");
    } catch (InterruptedException e) {
      harness.close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting Connect workers", e);
    } catch (RuntimeException | AssertionError e) {
      harness.close();
      throw e;
    }
    return harness;
  }

  /** The underlying cluster, for what the harness does not cover (REST calls, worker restarts). */
  public EmbeddedConnectCluster cluster() {
    return cluster;
  }

  public String bootstrapServers() {
    return cluster.kafka().bootstrapServers();
  }

  /** Creates {@code topic} with {@code partitions} partitions (replication factor 1). */
  public void createTopic(String topic, int partitions) {
    cluster.kafka().createTopic(topic, partitions);
  }

  /**
   * Sends one record serialized like a source connector with {@link JsonConverter} and schemas
   * enabled would ({@code {"schema": ..., "payload": ...}}); a null {@code value} sends a
   * tombstone. Waits for the broker's acknowledgement.
   *
   * @return the record's offset in its partition
   */
  public long produce(String topic, int partition, Schema keySchema, Object key, Schema valueSchema, Object value) {
    byte[] keyBytes = keyConverter.fromConnectData(topic, keySchema, key);
    byte[] valueBytes = value == null ? null : valueConverter.fromConnectData(topic, valueSchema, value);
    try {
      return producer.send(new ProducerRecord<>(topic, partition, keyBytes, valueBytes))
          .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).offset();
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot produce to " + topic + "-" + partition + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while producing to " + topic + "-" + partition, e);
    }
  }

  /** The end offset (offset of the next record) of every partition of {@code topic}. */
  public Map<TopicPartition, Long> endOffsets(String topic) {
    try (Admin admin = cluster.kafka().createAdminClient()) {
      TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
          .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic);
      Map<TopicPartition, OffsetSpec> request = description.partitions().stream()
          .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(request).all()
          .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      Map<TopicPartition, Long> offsets = new HashMap<>();
      result.forEach((partition, info) -> offsets.put(partition, info.offset()));
      return offsets;
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the end offsets of topic " + topic + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the end offsets of " + topic, e);
    }
  }

  /** The sum of {@link #endOffsets(String)}: how many records {@code topic} holds when none were deleted. */
  public long recordCount(String topic) {
    return endOffsets(topic).values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * Reads {@code topic} from the beginning until at least {@code count} records have arrived and
   * returns them (in partition order within each partition).
   *
   * @throws AssertionError when fewer arrive within {@link #DEFAULT_TIMEOUT}
   */
  public List<ConsumerRecord<byte[], byte[]>> readRecords(String topic, int count) {
    Map<String, Object> props = Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.GROUP_ID_CONFIG, "harness-reader-" + System.nanoTime());
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = cluster.kafka().createConsumerAndSubscribeTo(props, topic)) {
      Await.until(count + " records in topic " + topic, DEFAULT_TIMEOUT, () -> {
        ConsumerRecords<byte[], byte[]> polled = consumer.poll(CONSUMER_POLL);
        polled.forEach(records::add);
        return records.size();
      }, size -> size >= count);
    }
    return records;
  }

  /** Decodes a record key written with {@link JsonConverter} and schemas enabled. */
  public SchemaAndValue decodeKey(ConsumerRecord<byte[], byte[]> record) {
    return keyConverter.toConnectData(record.topic(), record.key());
  }

  /** Decodes a record value written with {@link JsonConverter} and schemas enabled (null for tombstones). */
  public SchemaAndValue decodeValue(ConsumerRecord<byte[], byte[]> record) {
    return valueConverter.toConnectData(record.topic(), record.value());
  }

  /**
   * Creates or reconfigures connector {@code name} and waits until it and {@code tasks} tasks run.
   *
   * @throws AssertionError when they are not all running within the harness timeout; the message
   *     has the connector's status (with task traces)
   */
  public void startConnector(String name, Map<String, String> config, int tasks) {
    cluster.configureConnector(name, config);
    awaitRunning(name, tasks);
  }

  /** Waits until connector {@code name} and exactly {@code tasks} tasks are running. */
  public void awaitRunning(String name, int tasks) {
    Await.until("connector " + name + " and " + tasks + " task(s) running", DEFAULT_TIMEOUT,
        () -> describe(cluster.connectorStatus(name)), status -> allRunning(status, tasks));
  }

  /** Deletes connector {@code name} and waits until the workers no longer know it. */
  public void deleteConnector(String name) {
    cluster.deleteConnector(name);
    Await.until("connector " + name + " to be deleted", DEFAULT_TIMEOUT,
        () -> !cluster.connectors().contains(name));
  }

  /** Stops connector {@code name} (its tasks shut down, its configuration stays) and waits for it. */
  public void stopConnector(String name) {
    cluster.stopConnector(name);
    Await.until("connector " + name + " to be stopped", DEFAULT_TIMEOUT,
        () -> AbstractStatus.State.STOPPED.name().equals(cluster.connectorStatus(name).connector().state()));
  }

  /** Current status of connector {@code name} as the REST API reports it. */
  public ConnectorStateInfo status(String name) {
    return cluster.connectorStatus(name);
  }

  @Override
  public void close() {
    try {
      producer.close();
    } finally {
      cluster.stop();
    }
  }

  private static JsonConverter jsonConverter(ConverterType type) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true",
        "converter.type", type.getName()));
    return converter;
  }

  /** A status with a readable {@code toString} for timeout messages. */
  private record Status(ConnectorStateInfo info) {
    @Override
    public String toString() {
      StringBuilder text = new StringBuilder("connector ").append(info.connector().state());
      if (info.connector().trace() != null) {
        text.append(" (").append(info.connector().trace()).append(')');
      }
      for (ConnectorStateInfo.TaskState task : info.tasks()) {
        text.append(", task ").append(task.id()).append(' ').append(task.state());
        if (task.trace() != null) {
          text.append(" (").append(task.trace()).append(')');
        }
      }
      return text.toString();
    }
  }

  private static Status describe(ConnectorStateInfo info) {
    return new Status(info);
  }

  private static boolean allRunning(Status status, int tasks) {
    String running = AbstractStatus.State.RUNNING.name();
    return running.equals(status.info().connector().state()) && status.info().tasks().size() == tasks
        && status.info().tasks().stream().allMatch(task -> running.equals(task.state()));
  }
}
