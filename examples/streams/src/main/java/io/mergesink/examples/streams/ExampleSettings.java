package io.mergesink.examples.streams;

import io.mergesink.ingest.config.TableOptions;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The example's settings: its defaults ({@link #DEFAULTS}), overridden by the properties files
 * given as arguments (a later file wins), overridden by {@code --key=value} arguments wherever they
 * stand (a later one wins). Three kinds of key:
 *
 * <ul>
 *   <li>{@value #TOPIC}: the Debezium topic of the customers table;
 *   <li>{@value #SINK_PREFIX}{@code <option>}: an option of the connector (docs/configuration.md)
 *       for both sinks, {@code mergesink.table.root} required; the example
 *       names each sink's {@code txn.app.id} and {@code table.name.format} itself;
 *   <li>anything else: Kafka Streams' and its clients' settings ({@code application.id},
 *       {@code bootstrap.servers}, {@code state.dir}, {@code session.timeout.ms}, ...).
 * </ul>
 */
final class ExampleSettings {
  static final String TOPIC = "topic";
  static final String SINK_PREFIX = "mergesink.";
  static final String USAGE = "usage: java -jar mergesink-streams-example.jar [FILE.properties ...] [--key=value ...]\n"
      + "  e.g. --bootstrap.servers=localhost:9092 --topic=pg.public.customers --mergesink.table.root=/tmp/lake";

  /**
   * Where a deployment starts from. A killed instance holds its tasks until the group notices it
   * gone: 10 s of session timeout (heartbeats every 3 s) rather than the consumer's 45 s. Every
   * Streams commit is a Delta commit per table and task: every 10 s, not every 100 ms of
   * {@code exactly_once_v2}. {@code state.dir} is not among them: see {@link #parse}.
   */
  static final Map<String, String> DEFAULTS = defaults();

  private final Map<String, String> settings;

  private ExampleSettings(Map<String, String> settings) {
    this.settings = settings;
  }

  private static Map<String, String> defaults() {
    Map<String, String> defaults = new LinkedHashMap<>();
    defaults.put(StreamsConfig.APPLICATION_ID_CONFIG, "mergesink-streams-example");
    defaults.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
    defaults.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    defaults.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "10000");
    defaults.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
    defaults.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "3000");
    defaults.put(TOPIC, "pg.public.customers");
    return Map.copyOf(defaults);
  }

  /**
   * The settings of {@code args}. Without {@code state.dir}, a new temporary directory: Streams keeps
   * its process id there, and two instances sharing one (the default {@code /tmp/kafka-streams} on
   * one host) take each other for the same member. The example keeps no state on local disk (its
   * state is the tables), so a fresh one per run costs nothing.
   *
   * @throws IllegalArgumentException an argument that is neither a file nor {@code --key=value}, a
   *     file that cannot be read, or a missing or reserved option (the message says which)
   */
  static ExampleSettings parse(String... args) {
    Map<String, String> settings = new LinkedHashMap<>(DEFAULTS);
    Map<String, String> overrides = new LinkedHashMap<>();
    for (String arg : args) {
      if (arg.startsWith("--")) {
        int equals = arg.indexOf('=');
        if (equals < 3) {
          throw new IllegalArgumentException("'" + arg + "' is not --key=value");
        }
        overrides.put(arg.substring(2, equals), arg.substring(equals + 1));
      } else {
        settings.putAll(load(Path.of(arg)));
      }
    }
    settings.putAll(overrides);
    for (String reserved : new String[] {TableOptions.TXN_APP_ID, TableOptions.TABLE_NAME_FORMAT}) {
      if (settings.containsKey(SINK_PREFIX + reserved)) {
        throw new IllegalArgumentException(SINK_PREFIX + reserved + " cannot be set: the example sets it for each of its sinks");
      }
    }
    if (settings.getOrDefault(SINK_PREFIX + TableOptions.TABLE_ROOT, "").isBlank()) {
      throw new IllegalArgumentException(SINK_PREFIX + TableOptions.TABLE_ROOT + " is required: where the tables are");
    }
    settings.computeIfAbsent(StreamsConfig.STATE_DIR_CONFIG, key -> newStateDir());
    return new ExampleSettings(settings);
  }

  String topic() {
    return settings.get(TOPIC);
  }

  String applicationId() {
    return settings.get(StreamsConfig.APPLICATION_ID_CONFIG);
  }

  /** The settings of Kafka Streams and its clients. */
  Properties streamsProperties() {
    Properties properties = new Properties();
    settings.forEach((key, value) -> {
      if (!key.equals(TOPIC) && !key.startsWith(SINK_PREFIX)) {
        properties.put(key, value);
      }
    });
    return properties;
  }

  /** The connector options both sinks share, without their prefix. */
  Map<String, String> sinkOptions() {
    Map<String, String> options = new LinkedHashMap<>();
    settings.forEach((key, value) -> {
      if (key.startsWith(SINK_PREFIX)) {
        options.put(key.substring(SINK_PREFIX.length()), value);
      }
    });
    return options;
  }

  private static Map<String, String> load(Path file) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read properties file " + file + ": " + e.getMessage(), e);
    }
    Map<String, String> loaded = new LinkedHashMap<>();
    properties.stringPropertyNames().forEach(key -> loaded.put(key, properties.getProperty(key)));
    return loaded;
  }

  private static String newStateDir() {
    try {
      return Files.createTempDirectory("mergesink-streams-example-").toString();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot create a state.dir; set one: " + e.getMessage(), e);
    }
  }
}
