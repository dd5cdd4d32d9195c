package io.mergesink.localconnect;

import static java.net.HttpURLConnection.HTTP_CONFLICT;
import static java.net.HttpURLConnection.HTTP_INTERNAL_ERROR;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
import org.apache.kafka.connect.runtime.isolation.PluginDiscoveryMode;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.runtime.rest.errors.ConnectRestException;
import org.apache.kafka.connect.storage.ConverterType;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * A Kafka cluster (one KRaft broker) and Connect workers (distributed mode) in this JVM, around
 * Kafka's {@link EmbeddedConnectCluster} (from the {@code connect-runtime} test jar), for the
 * quickstart, the tests and the benchmarks. Its data lives in temp directories that {@link #close()}
 * deletes.
 *
 * <p>Workers' default converters are {@link JsonConverter} with schemas enabled, for keys and values,
 * as in {@code config/connect-distributed.properties}; sink tasks get {@code preCommit} every second.
 * {@link Builder#workerProps} replaces either. Workers find plugins through their
 * {@code META-INF/services} entries ({@code plugin.discovery=service_load}, as in
 * {@code config/connect-distributed.properties}; MergeSink, Debezium and Kafka ship them): the
 * embedded cluster's own default, {@code hybrid_fail}, also scans every class on the class path by
 * reflection, about 5 s of CPU for each worker started.
 * The broker does not create topics on first use: create them with {@link #createTopic}, or let a
 * source connector create them with {@code topic.creation.default.*} options.
 *
 * <p>Waits poll (no fixed sleeps) and end after {@link Builder#timeout} with an
 * {@link IllegalStateException} naming what was awaited and what was last seen; a connector or task
 * that fails while {@link #startConnector} waits ends the wait at once with a
 * {@link ConnectorFailedException}. The caller owns the cluster and must {@link #close()} it.
 */
public final class LocalConnect implements AutoCloseable {
  /** How long connector state changes and topic reads may take, unless {@link Builder#timeout} says otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  /** Worker's offset commit interval: sink tasks get {@code preCommit} calls this often. */
  private static final String OFFSET_FLUSH_INTERVAL_MS = "1000";
  private static final Duration CONSUMER_POLL = Duration.ofMillis(200);
  private static final long ADMIN_TIMEOUT_SECONDS = 30;

  private final EmbeddedConnectCluster cluster;
  private final Duration timeout;
  private final KafkaProducer<byte[], byte[]> producer;
  private final JsonConverter keyConverter = jsonConverter(ConverterType.KEY);
  private final JsonConverter valueConverter = jsonConverter(ConverterType.VALUE);

  private LocalConnect(EmbeddedConnectCluster cluster, Duration timeout) {
    this.cluster = cluster;
    this.timeout = timeout;
    this.producer = cluster.kafka().createProducer(Map.of(ProducerConfig.ACKS_CONFIG, "all"));
  }

  /** Options of a cluster to start; {@link Builder#start()} starts it. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts one broker and {@code workers} Connect workers with the default options. */
  public static LocalConnect start(int workers) {
    return builder().workers(workers).start();
  }

  /** Starts one broker and {@code workers} Connect workers; {@code workerProps} replace the defaults. */
  public static LocalConnect start(int workers, Map<String, String> workerProps) {
    return builder().workers(workers).workerProps(workerProps).start();
  }

  /** The underlying cluster, for what this class does not cover (REST calls, worker and broker restarts). */
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

  /** Whether {@code topic} exists (a source connector creates its topics with its first records). */
  public boolean topicExists(String topic) {
    try (Admin admin = cluster.kafka().createAdminClient()) {
      return admin.listTopics().names().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).contains(topic);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot list the topics of " + bootstrapServers() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing topics", e);
    }
  }

  /** A new producer of raw bytes with {@code config} over the broker's defaults; the caller closes it. */
  public KafkaProducer<byte[], byte[]> createProducer(Map<String, Object> config) {
    return cluster.kafka().createProducer(config);
  }

  /**
   * Sends one record serialized as a source connector with {@link JsonConverter} and schemas
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
      throw new IllegalStateException("cannot read the end offsets of topic " + topic + " from "
          + bootstrapServers() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the end offsets of " + topic, e);
    }
  }

  /** The sum of {@link #endOffsets(String)}: how many records {@code topic} holds when none were deleted. */
  public long recordCount(String topic) {
    return endOffsets(topic).values().stream().mapToLong(Long::longValue).sum();
  }

  /** The offsets consumer group {@code group} has committed, by partition (a partition without one is absent). */
  public Map<TopicPartition, Long> committedOffsets(String group) {
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
      throw new IllegalStateException("cannot read the committed offsets of consumer group " + group + ": "
          + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the offsets of " + group, e);
    }
  }

  /**
   * Reads {@code topic} from the beginning until at least {@code count} records have arrived and
   * returns them (in offset order within each partition).
   *
   * @throws AssertionError when fewer arrive within {@link #DEFAULT_TIMEOUT}
   */
  public List<ConsumerRecord<byte[], byte[]>> readRecords(String topic, int count) {
    Map<String, Object> props = Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.GROUP_ID_CONFIG, "local-connect-reader-" + System.nanoTime());
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = cluster.kafka().createConsumerAndSubscribeTo(props, topic)) {
      Await.until(count + " records in topic " + topic, DEFAULT_TIMEOUT, () -> {
        consumer.poll(CONSUMER_POLL).forEach(records::add);
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
   * Creates or reconfigures connector {@code name} and waits until it and exactly {@code tasks}
   * tasks run.
   *
   * @throws ConnectorFailedException when the connector or a task fails first (the message has its trace)
   * @throws IllegalStateException when they do not all run within the timeout (the message has their states)
   */
  public void startConnector(String name, Map<String, String> config, int tasks) {
    configure(name, config);
    awaitState(name, tasks + " task(s)", AbstractStatus.State.RUNNING, count -> count == tasks, true);
  }

  /**
   * Creates connector {@code name} and waits until it and all its tasks (at least one) run, for a
   * connector that decides itself how many tasks it starts.
   *
   * @throws ConnectorFailedException when the connector or a task fails first (the message has its trace)
   * @throws IllegalStateException when they do not all run within the timeout
   */
  public void startConnector(String name, Map<String, String> config) {
    configure(name, config);
    awaitState(name, "its tasks", AbstractStatus.State.RUNNING, count -> count > 0, true);
  }

  /**
   * Puts connector {@code name}'s configuration, again while the workers cannot take it yet, as any
   * client of Connect's REST API must: while the group still names a leader that stopped abruptly
   * (the worker that forwards the request to it answers 500) or rebalances (409).
   *
   * @throws ConnectRestException when the workers reject the configuration
   */
  private void configure(String name, Map<String, String> config) {
    ConnectRestException[] rejected = new ConnectRestException[1];
    await("the workers to take the configuration of connector " + name, () -> {
      try {
        cluster.configureConnector(name, config);
      } catch (ConnectRestException e) {
        if (e.statusCode() == HTTP_CONFLICT || e.statusCode() >= HTTP_INTERNAL_ERROR) {
          throw e;
        }
        rejected[0] = e;
      }
      return true;
    });
    if (rejected[0] != null) {
      throw rejected[0];
    }
  }

  /**
   * Waits until connector {@code name} and exactly {@code tasks} tasks run, whatever states they
   * pass through on the way (after a restart a task may still show its earlier failure).
   */
  public void awaitRunning(String name, int tasks) {
    awaitState(name, tasks + " task(s)", AbstractStatus.State.RUNNING, count -> count == tasks, false);
  }

  /**
   * Pauses connector {@code name} and waits until it and its {@code tasks} tasks are paused.
   *
   * @throws ConnectorFailedException when the connector or a task fails first
   */
  public void pauseConnector(String name, int tasks) {
    cluster.pauseConnector(name);
    awaitState(name, tasks + " task(s)", AbstractStatus.State.PAUSED, count -> count == tasks, true);
  }

  /** Resumes connector {@code name}; does not wait, so a caller that times the resume includes it. */
  public void resumeConnector(String name) {
    cluster.resumeConnector(name);
  }

  /** Stops connector {@code name} (its tasks shut down, its configuration stays) and waits for it. */
  public void stopConnector(String name) {
    cluster.stopConnector(name);
    await("connector " + name + " to be stopped",
        () -> AbstractStatus.State.STOPPED.name().equals(cluster.connectorStatus(name).connector().state()));
  }

  /** Deletes connector {@code name} and waits until the workers no longer know it. */
  public void deleteConnector(String name) {
    cluster.deleteConnector(name);
    await("connector " + name + " to be deleted", () -> !cluster.connectors().contains(name));
  }

  /** Current status of connector {@code name} as the REST API reports it. */
  public ConnectorStateInfo status(String name) {
    return cluster.connectorStatus(name);
  }

  /**
   * Throws when connector {@code name} or one of its tasks has failed.
   *
   * @throws ConnectorFailedException with the failure's trace
   */
  public void requireNotFailed(String name) {
    requireNotFailed(name, cluster.connectorStatus(name));
  }

  /** Stops the workers (their connectors' tasks stop and close) and the broker, and deletes their data. */
  @Override
  public void close() {
    try {
      producer.close();
    } finally {
      cluster.stop();
    }
  }

  /**
   * Waits until connector {@code name} is in {@code state} with a task count {@code taskCount}
   * accepts, all of them in {@code state}; with {@code failFast} a failed connector or task ends the
   * wait at once.
   */
  private void awaitState(String name, String tasks, AbstractStatus.State state, Predicate<Integer> taskCount,
      boolean failFast) {
    String expected = state.name();
    Await.poll("connector " + name + " and " + tasks + " " + expected, timeout,
        () -> {
          Status status = new Status(cluster.connectorStatus(name));
          if (failFast) {
            requireNotFailed(name, status.info());
          }
          return status;
        },
        status -> expected.equals(status.info().connector().state()) && taskCount.test(status.info().tasks().size())
            && status.info().tasks().stream().allMatch(task -> expected.equals(task.state())));
  }

  private void await(String what, Supplier<Boolean> condition) {
    Await.poll(what, timeout, condition, Boolean.TRUE::equals);
  }

  private static void requireNotFailed(String name, ConnectorStateInfo info) {
    String failed = AbstractStatus.State.FAILED.name();
    if (failed.equals(info.connector().state())) {
      throw new ConnectorFailedException("connector " + name + " failed: " + info.connector().trace());
    }
    for (ConnectorStateInfo.TaskState task : info.tasks()) {
      if (failed.equals(task.state())) {
        throw new ConnectorFailedException("task " + task.id() + " of connector " + name + " failed: " + task.trace());
      }
    }
  }

  private static JsonConverter jsonConverter(ConverterType type) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true",
        "converter.type", type.getName()));
    return converter;
  }

  /** A connector status with a readable {@code toString}, for timeout messages. */
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

  /** What cluster to start: how many workers, their and the broker's options, where Kafka's startup output goes. */
  public static final class Builder {
    private String name = "mergesink-local";
    private int workers = 1;
    private final Map<String, String> workerProps = new HashMap<>();
    private final Properties brokerProps = new Properties();
    private PrintStream startupOutput;
    private Duration timeout = DEFAULT_TIMEOUT;

    private Builder() {
      workerProps.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG, JsonConverter.class.getName());
      workerProps.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG, JsonConverter.class.getName());
      workerProps.put(WorkerConfig.KEY_CONVERTER_CLASS_CONFIG + "." + JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
      workerProps.put(WorkerConfig.VALUE_CONVERTER_CLASS_CONFIG + "." + JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
      workerProps.put(WorkerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, OFFSET_FLUSH_INTERVAL_MS);
      workerProps.put(WorkerConfig.PLUGIN_DISCOVERY_CONFIG, PluginDiscoveryMode.SERVICE_LOAD.name().toLowerCase(Locale.ROOT));
    }

    /** The cluster's name, in its threads' and directories' names. */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** How many Connect workers to start (1 unless set). */
    public Builder workers(int workers) {
      if (workers < 1) {
        throw new IllegalArgumentException("a cluster needs at least one worker, not " + workers);
      }
      this.workers = workers;
      return this;
    }

    /** Worker options, added to the defaults and replacing those they name. */
    public Builder workerProps(Map<String, String> props) {
      workerProps.putAll(props);
      return this;
    }

    /** Broker options, added to the embedded cluster's. */
    public Builder brokerProps(Map<String, String> props) {
      brokerProps.putAll(props);
      return this;
    }

    /**
     * Where what Kafka prints to {@code System.out} while it starts (its storage formatter's
     * bootstrap metadata) goes instead; unless set, it stays on {@code System.out}.
     */
    public Builder startupOutput(PrintStream output) {
      this.startupOutput = output;
      return this;
    }

    /** How long the cluster's waits for connector states may take ({@link #DEFAULT_TIMEOUT} unless set). */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /**
     * Starts the broker and the workers and waits until every worker is up.
     *
     * @throws IllegalStateException when the workers are not all up within the timeout
     */
    public LocalConnect start() {
      EmbeddedConnectCluster cluster = new EmbeddedConnectCluster.Builder()
          .name(name)
          .numWorkers(workers)
          .numBrokers(1)
          .brokerProps(brokerProps)
          .workerProps(workerProps)
          .build();
      PrintStream console = System.out;
      try {
        if (startupOutput != null) {
          System.setOut(startupOutput);
        }
        cluster.start();
      } catch (RuntimeException e) {
        cluster.stop();
        throw e;
      } finally {
        System.setOut(console);
      }
      LocalConnect connect = new LocalConnect(cluster, timeout);
      try {
        connect.await(workers + " Connect worker(s) up", () -> cluster.healthyWorkers().size() == workers);
        return connect;
      } catch (RuntimeException e) {
        connect.close();
        throw e;
      }
    }
  }
}
