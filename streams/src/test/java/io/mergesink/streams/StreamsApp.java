package io.mergesink.streams;

import io.mergesink.ingest.config.IngestOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;

/**
 * The Streams application the integration tests run, in the test JVM or as a child JVM
 * ({@link #main}): Debezium JSON from one topic, through {@link ConnectSerde}, into the tables
 * under a root with {@link MergeSink#toDelta}.
 */
final class StreamsApp {
  /** Both the engine's and Streams' commit interval: short, so that a test sees many commits. */
  static final Duration COMMIT_INTERVAL = Duration.ofSeconds(1);
  /** What a child prints when its instance first reaches RUNNING. */
  static final String RUNNING_LINE = "mergesink-streams-app RUNNING";

  private StreamsApp() {}

  /**
   * The settings of one instance; every instance of a test shares {@code applicationId}.
   * {@code engineCommitInterval} is the sink's own ({@link #COMMIT_INTERVAL} unless a test needs another).
   */
  record Settings(String bootstrapServers, String topic, String applicationId, String guarantee, Path tableRoot, Path stateDir,
      Duration engineCommitInterval) {
    Settings(String bootstrapServers, String topic, String applicationId, String guarantee, Path tableRoot, Path stateDir) {
      this(bootstrapServers, topic, applicationId, guarantee, tableRoot, stateDir, COMMIT_INTERVAL);
    }

    Settings withEngineCommitInterval(Duration interval) {
      return new Settings(bootstrapServers, topic, applicationId, guarantee, tableRoot, stateDir, interval);
    }

    String[] args() {
      return new String[] {bootstrapServers, topic, applicationId, guarantee, tableRoot.toString(), stateDir.toString(),
          engineCommitInterval.toString()};
    }

    static Settings of(String[] args) {
      return new Settings(args[0], args[1], args[2], args[3], Path.of(args[4]), Path.of(args[5]), Duration.parse(args[6]));
    }
  }

  static Topology topology(Settings settings) {
    Map<String, String> json = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    IngestOptions options = IngestOptions.builder(settings.tableRoot().toString(), settings.applicationId())
        .commitInterval(settings.engineCommitInterval())
        .build();
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(settings.topic(), Consumed.with(ConnectSerde.keys(new JsonConverter(), json), ConnectSerde.values(new JsonConverter(), json)))
        .process(MergeSink.toDelta(options));
    return builder.build();
  }

  static Properties properties(Settings settings) {
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, settings.guarantee());
    properties.put(StreamsConfig.STATE_DIR_CONFIG, settings.stateDir().toString());
    properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, (int) COMMIT_INTERVAL.toMillis());
    properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
    // a killed instance leaves the group after the session timeout: keep it short
    properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
    properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
    properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    return properties;
  }

  /** An instance in this JVM; a thread that dies is replaced (its tasks resume from the tables). */
  static KafkaStreams start(Settings settings) {
    KafkaStreams streams = new KafkaStreams(topology(settings), properties(settings));
    streams.setUncaughtExceptionHandler(e -> StreamThreadExceptionResponse.REPLACE_THREAD);
    streams.start();
    return streams;
  }

  /** Runs one instance until the process is killed. Arguments: {@link Settings#args()}. */
  public static void main(String[] args) throws InterruptedException {
    KafkaStreams streams = new KafkaStreams(topology(Settings.of(args)), properties(Settings.of(args)));
    CountDownLatch running = new CountDownLatch(1);
    streams.setStateListener((now, before) -> {
      if (now == KafkaStreams.State.RUNNING) {
        running.countDown();
      }
    });
    streams.setUncaughtExceptionHandler(e -> StreamThreadExceptionResponse.REPLACE_THREAD);
    streams.start();
    running.await();
    System.out.println(RUNNING_LINE);
    System.out.flush();
    new CountDownLatch(1).await(); // until killed
  }
}
