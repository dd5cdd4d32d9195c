package io.mergesink.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.runtime.AbstractStatus;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * One KRaft broker and one Connect worker (distributed mode) in this JVM, around Kafka's
 * {@link EmbeddedConnectCluster}, with what the e2e suite needs: a producer of Debezium-shaped
 * change events ({@link ChangeEncoder}), end offsets, connector lifecycle and the sink's JMX metrics.
 * The worker's default converters are JsonConverter with schemas; connectors name their own
 * ({@link RecordFormat#connectorConfig()}).
 * Trimmed from the connector's test {@code ConnectHarness}. The caller must {@link #close()} it.
 */
final class EmbeddedConnect implements AutoCloseable {
  private static final Duration STATE_TIMEOUT = Duration.ofSeconds(120);
  private static final long ADMIN_TIMEOUT_SECONDS = 30;
  private static final long POLL_MILLIS = 50;
  private static final int METRICS_SAMPLES = 10;

  private final EmbeddedConnectCluster cluster;
  private final KafkaProducer<byte[], byte[]> producer;

  /**
   * Starts the broker and worker; sink tasks get {@code preCommit} every {@code offsetFlushMillis}.
   * The worker's sampled metrics (the sink's commit-latency percentiles among them) cover the last
   * {@code metricsWindowMillis}: {@value #METRICS_SAMPLES} samples that split the window, a sample
   * kept while its last recording is younger than the window.
   */
  EmbeddedConnect(long offsetFlushMillis, long metricsWindowMillis) {
    this(offsetFlushMillis, metricsWindowMillis, Map.of(), new Properties());
  }

  /**
   * The same with more worker properties ({@code plugin.path} and such) and broker properties.
   */
  EmbeddedConnect(long offsetFlushMillis, long metricsWindowMillis, Map<String, String> moreWorkerProps, Properties brokerProps) {
    Map<String, String> props = new HashMap<>();
    props.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG, JsonConverter.class.getName());
    props.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG, JsonConverter.class.getName());
    props.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG + "." + JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    props.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG + "." + JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    props.put(WorkerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, Long.toString(offsetFlushMillis));
    props.put(WorkerConfig.METRICS_NUM_SAMPLES_CONFIG, Integer.toString(METRICS_SAMPLES));
    props.put(WorkerConfig.METRICS_SAMPLE_WINDOW_MS_CONFIG, Long.toString(metricsWindowMillis / METRICS_SAMPLES));
    props.putAll(moreWorkerProps);
    cluster = new EmbeddedConnectCluster.Builder()
        .name("mergesink-bench")
        .numWorkers(1)
        .numBrokers(1)
        .brokerProps(brokerProps)
        .workerProps(props)
        .build();
    try {
      cluster.start();
    } catch (RuntimeException e) {
      cluster.stop();
      throw e;
    }
    producer = cluster.kafka().createProducer(Map.of(
        ProducerConfig.ACKS_CONFIG, "1",
        ProducerConfig.LINGER_MS_CONFIG, "20",
        ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024)));
  }

  void createTopic(String topic, int partitions) {
    cluster.kafka().createTopic(topic, partitions);
  }

  String bootstrapServers() {
    return cluster.kafka().bootstrapServers();
  }

  /** The offsets consumer group {@code group} has committed, by partition (a partition without one is absent). */
  Map<TopicPartition, Long> committedOffsets(String group) {
    try (Admin admin = cluster.kafka().createAdminClient()) {
      Map<TopicPartition, Long> offsets = new HashMap<>();
      admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
          .forEach((partition, offset) -> {
            if (offset != null) {
              offsets.put(partition, offset.offset());
            }
          });
      return offsets;
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the committed offsets of consumer group " + group + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the offsets of " + group, e);
    }
  }

  /**
   * Sends a change event of customer {@code change.id()}, encoded by {@code encoder}, to its
   * partition ({@link #partitionOf}); a delete is followed by its tombstone. {@code acked} (may be null) gets
   * the change event's acknowledgement.
   */
  void send(String topic, int partitions, ChangeEncoder encoder, E2eWorkload.Change change, Callback acked) {
    byte[] key = encoder.key(topic, change.id());
    int partition = partitionOf(change.id(), partitions);
    producer.send(new ProducerRecord<>(topic, partition, key, encoder.value(topic, change)), acked);
    if (change.op().equals("d")) {
      producer.send(new ProducerRecord<>(topic, partition, key, null));
    }
  }

  /** The partition the change events of customer {@code id} go to, as Debezium keys them: one per key. */
  static int partitionOf(long id, int partitions) {
    return (int) (id % partitions);
  }

  void flush() {
    producer.flush();
  }

  /** The end offset (offset of the next record) of every partition of {@code topic}. */
  Map<TopicPartition, Long> endOffsets(String topic) {
    try (Admin admin = cluster.kafka().createAdminClient()) {
      TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
          .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic);
      Map<TopicPartition, OffsetSpec> request = description.partitions().stream()
          .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(request).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
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

  /** Creates connector {@code name} and waits until it and {@code tasks} tasks run. */
  void startConnector(String name, Map<String, String> config, int tasks) {
    cluster.configureConnector(name, config);
    awaitState(name, tasks, AbstractStatus.State.RUNNING);
  }

  void pauseConnector(String name, int tasks) {
    cluster.pauseConnector(name);
    awaitState(name, tasks, AbstractStatus.State.PAUSED);
  }

  /** Resumes connector {@code name}; does not wait, so the caller's clock includes the resume. */
  void resumeConnector(String name) {
    cluster.resumeConnector(name);
  }

  void deleteConnector(String name) {
    cluster.deleteConnector(name);
    await("connector " + name + " to be deleted", () -> !cluster.connectors().contains(name));
  }

  /**
   * The values of sink metric {@code metric} of connector {@code name}'s tasks, as JMX shows them
   * (Connect registers plugin metrics under {@code kafka.connect:...plugins...}).
   */
  static List<Double> taskMetric(String name, String metric) {
    List<Double> found = new ArrayList<>();
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      for (ObjectName bean : server.queryNames(new ObjectName("kafka.connect:*"), null)) {
        if (name.equals(bean.getKeyProperty("connector")) && bean.toString().contains("plugins")) {
          for (MBeanAttributeInfo attribute : server.getMBeanInfo(bean).getAttributes()) {
            if (attribute.getName().equals(metric)) {
              Object value = server.getAttribute(bean, metric);
              if (value instanceof Number number) {
                found.add(number.doubleValue());
              }
            }
          }
        }
      }
      return found;
    } catch (JMException e) {
      throw new IllegalStateException("cannot read metric " + metric + " of connector " + name + " over JMX", e);
    }
  }

  /**
   * The values of Connect's own task metric {@code metric} in group {@code type} (e.g.
   * {@code sink-task-metrics}, {@code connector-task-metrics}) of connector {@code name}'s tasks:
   * the figures every sink has, whatever it measures itself.
   */
  static List<Double> connectTaskMetric(String name, String type, String metric) {
    List<Double> found = new ArrayList<>();
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      for (ObjectName bean : server.queryNames(new ObjectName("kafka.connect:type=" + type + ",*"), null)) {
        if (name.equals(bean.getKeyProperty("connector")) && server.getAttribute(bean, metric) instanceof Number number) {
          found.add(number.doubleValue());
        }
      }
      return found;
    } catch (JMException e) {
      throw new IllegalStateException("cannot read metric " + type + "/" + metric + " of connector " + name + " over JMX", e);
    }
  }

  @Override
  public void close() {
    try {
      producer.close();
    } finally {
      cluster.stop();
    }
  }

  private void awaitState(String name, int tasks, AbstractStatus.State state) {
    await("connector " + name + " and " + tasks + " task(s) " + state, () -> {
      ConnectorStateInfo info;
      try {
        info = cluster.connectorStatus(name);
      } catch (RuntimeException e) {
        return false;
      }
      requireNoFailedTask(name, info);
      String expected = state.name();
      return expected.equals(info.connector().state()) && info.tasks().size() == tasks
          && info.tasks().stream().allMatch(task -> expected.equals(task.state()));
    });
  }

  /**
   * @throws IllegalStateException a task of connector {@code name} failed, with its trace
   */
  void requireNoFailedTask(String name) {
    requireNoFailedTask(name, cluster.connectorStatus(name));
  }

  private static void requireNoFailedTask(String name, ConnectorStateInfo info) {
    for (ConnectorStateInfo.TaskState task : info.tasks()) {
      if (AbstractStatus.State.FAILED.name().equals(task.state())) {
        throw new IllegalStateException("task " + task.id() + " of " + name + " failed: " + task.trace());
      }
    }
  }

  static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + STATE_TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + STATE_TIMEOUT + " waiting for " + what);
      }
      sleep(POLL_MILLIS);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
