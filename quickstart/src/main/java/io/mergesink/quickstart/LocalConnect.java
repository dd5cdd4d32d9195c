package io.mergesink.quickstart;

import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.runtime.AbstractStatus;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.runtime.isolation.PluginDiscoveryMode;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * A Kafka cluster of one KRaft broker and one Connect worker (distributed mode) in this JVM, built
 * on Kafka's {@link EmbeddedConnectCluster} (from the {@code connect-runtime} test jar: a demo
 * launcher may use it; the connector plugin never does). Its data lives in temp directories that
 * {@link #close()} deletes.
 *
 * <p>The worker finds connectors on the class path through their {@code META-INF/services}
 * entries ({@code plugin.discovery=service_load}, as in {@code config/connect-distributed.properties};
 * MergeSink and Debezium both ship them). The embedded cluster's default, {@code hybrid_fail}, also
 * scans every class on the class path by reflection, which takes ~25 s here. Converters default to
 * {@link JsonConverter} with schemas, as in {@code config/connect-distributed.properties}.
 *
 * <p>Kafka's storage formatter prints its bootstrap metadata to {@code System.out}; {@link #start}
 * sends that to {@code startupOutput} instead, to keep the console for the demo's progress.
 */
final class LocalConnect implements AutoCloseable {
  /** How long a connector may take to get all its tasks running. */
  static final Duration CONNECTOR_START_TIMEOUT = Duration.ofSeconds(60);
  /** Worker's offset flush interval: how often sink tasks get {@code preCommit} calls. */
  private static final String OFFSET_FLUSH_INTERVAL_MS = "1000";
  private static final long ADMIN_TIMEOUT_SECONDS = 30;
  /** One broker, a handful of groups: one offsets partition instead of 50 starts faster. */
  private static final String OFFSETS_TOPIC_PARTITIONS = "1";

  private final EmbeddedConnectCluster cluster;

  private LocalConnect(EmbeddedConnectCluster cluster) {
    this.cluster = cluster;
  }

  /**
   * Starts the broker and the worker and waits until the worker is healthy.
   *
   * @param startupOutput where what Kafka prints to {@code System.out} while starting goes
   */
  static LocalConnect start(PrintStream startupOutput) {
    Map<String, String> props = new HashMap<>();
    props.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG, JsonConverter.class.getName());
    props.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG, JsonConverter.class.getName());
    props.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG + "." + JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    props.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG + "." + JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    props.put(WorkerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, OFFSET_FLUSH_INTERVAL_MS);
    props.put(WorkerConfig.PLUGIN_DISCOVERY_CONFIG, PluginDiscoveryMode.SERVICE_LOAD.name().toLowerCase(Locale.ROOT));
    EmbeddedConnectCluster cluster = new EmbeddedConnectCluster.Builder()
        .name("mergesink-quickstart")
        .numWorkers(1)
        .numBrokers(1)
        .brokerProps(brokerProps())
        .workerProps(props)
        .build();
    LocalConnect connect = new LocalConnect(cluster);
    PrintStream console = System.out;
    try {
      System.setOut(startupOutput);
      cluster.start();
      Waits.until("the Connect worker's REST API", CONNECTOR_START_TIMEOUT,
          cluster::allWorkersHealthy);
      return connect;
    } catch (RuntimeException e) {
      connect.close();
      throw e;
    } finally {
      System.setOut(console);
    }
  }

  private static Properties brokerProps() {
    Properties props = new Properties();
    props.put("offsets.topic.num.partitions", OFFSETS_TOPIC_PARTITIONS);
    props.put("group.initial.rebalance.delay.ms", "0");
    return props;
  }

  String bootstrapServers() {
    return cluster.kafka().bootstrapServers();
  }

  /** Creates {@code topic} with {@code partitions} partitions (replication factor 1). */
  void createTopic(String topic, int partitions) {
    cluster.kafka().createTopic(topic, partitions);
  }

  /** A new producer of raw bytes to the broker; the caller closes it. */
  KafkaProducer<byte[], byte[]> createProducer(Map<String, Object> config) {
    return cluster.kafka().createProducer(config);
  }

  /**
   * Creates connector {@code name} and waits until it and its tasks run.
   *
   * @throws ConnectorFailedException when the connector or a task fails (the message has its stack trace)
   * @throws IllegalStateException when they do not all run within {@link #CONNECTOR_START_TIMEOUT}
   */
  void startConnector(String name, Map<String, String> config) {
    cluster.configureConnector(name, config);
    Waits.until("connector " + name + " and its tasks to run", CONNECTOR_START_TIMEOUT, () -> {
      ConnectorStateInfo status = cluster.connectorStatus(name);
      failIfFailed(name, status);
      String running = AbstractStatus.State.RUNNING.name();
      return running.equals(status.connector().state()) && !status.tasks().isEmpty()
          && status.tasks().stream().allMatch(task -> running.equals(task.state()));
    });
  }

  /**
   * Throws when connector {@code name} or one of its tasks has failed.
   *
   * @throws ConnectorFailedException with the failure's stack trace
   */
  void checkNotFailed(String name) {
    failIfFailed(name, cluster.connectorStatus(name));
  }

  /** The end offset (offset of the next record) of every partition of {@code topic}, by partition number. */
  Map<Integer, Long> endOffsets(String topic) {
    try (Admin admin = cluster.kafka().createAdminClient()) {
      TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
          .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic);
      Map<TopicPartition, OffsetSpec> request = description.partitions().stream()
          .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(request).all()
          .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      Map<Integer, Long> offsets = new TreeMap<>();
      result.forEach((partition, info) -> offsets.put(partition.partition(), info.offset()));
      return offsets;
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the end offsets of topic " + topic + " from "
          + bootstrapServers() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the end offsets of " + topic, e);
    }
  }

  /** Whether {@code topic} exists yet (Debezium creates its topic with the first event). */
  boolean topicExists(String topic) {
    try (Admin admin = cluster.kafka().createAdminClient()) {
      return admin.listTopics().names().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).contains(topic);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot list the topics of " + bootstrapServers() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing topics", e);
    }
  }

  /** Stops the worker (its connectors' tasks stop and close) and the broker, and deletes their data. */
  @Override
  public void close() {
    cluster.stop();
  }

  private static void failIfFailed(String name, ConnectorStateInfo status) {
    String failed = AbstractStatus.State.FAILED.name();
    if (failed.equals(status.connector().state())) {
      throw new ConnectorFailedException("connector " + name + " failed: " + status.connector().trace());
    }
    for (ConnectorStateInfo.TaskState task : status.tasks()) {
      if (failed.equals(task.state())) {
        throw new ConnectorFailedException("task " + task.id() + " of connector " + name + " failed: " + task.trace());
      }
    }
  }
}
