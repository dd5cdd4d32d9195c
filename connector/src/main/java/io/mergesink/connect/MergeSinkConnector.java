package io.mergesink.connect;

import io.mergesink.connect.config.ConfigValidation;
import io.mergesink.connect.config.MergeSinkConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import io.mergesink.core.storage.Storages;
import java.util.Optional;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * The MergeSink connector: validates the configuration and hands every task the same one, plus
 * its task number (the worker assigns topic-partitions to tasks). All work happens in the task,
 * {@link MergeSinkTask}.
 */
public final class MergeSinkConnector extends SinkConnector {
  private static final String VERSION_RESOURCE = "mergesink-connector-version.properties";
  /** This build's version, as every MergeSink plugin (the connector, its converter) reports it. */
  public static final String VERSION = loadVersion();

  private Map<String, String> props;

  @Override
  public String version() {
    return VERSION;
  }

  /**
   * Stores the configuration after checking it.
   *
   * @throws ConfigException when an option is invalid, or {@code table.root}'s scheme has no
   *     storage whose commits are atomic
   */
  @Override
  public void start(Map<String, String> props) {
    MergeSinkConfig config = new MergeSinkConfig(props);
    Optional<String> unsupported = Storages.unsupportedReason(config.tableRoot());
    if (unsupported.isPresent()) {
      throw new ConfigException(unsupported.get());
    }
    this.props = Map.copyOf(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return MergeSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    if (props == null) {
      throw new IllegalStateException("taskConfigs called before start");
    }
    List<Map<String, String>> configs = new ArrayList<>(maxTasks);
    for (int i = 0; i < maxTasks; i++) {
      // Connect numbers tasks in this order; the number tags the task's metrics on workers before 4.1.
      Map<String, String> task = new HashMap<>(props);
      task.put(MergeSinkConfig.TASK_ID, Integer.toString(i));
      configs.add(Map.copyOf(task));
    }
    return configs;
  }

  @Override
  public void stop() {
    props = null;
  }

  @Override
  public ConfigDef config() {
    return MergeSinkConfig.CONFIG_DEF;
  }

  /**
   * Per-option validation, then the cross-field checks of {@link ConfigValidation}, then the
   * {@code table.properties.*} options (not in the ConfigDef: reported under their own names).
   */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config config = super.validate(connectorConfigs);
    ConfigValidation.validate(connectorConfigs, config.configValues());
    List<ConfigValue> values = new ArrayList<>(config.configValues());
    values.addAll(ConfigValidation.tableProperties(connectorConfigs));
    return new Config(values);
  }

  private static String loadVersion() {
    try (InputStream in = MergeSinkConnector.class.getResourceAsStream(VERSION_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + VERSION_RESOURCE + " next to " + MergeSinkConnector.class);
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + VERSION_RESOURCE, e);
    }
  }
}
