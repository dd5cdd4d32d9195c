package io.mergesink.connect.config;

import io.mergesink.ingest.config.IngestConfig;
import io.mergesink.ingest.config.TableOptions;
import io.mergesink.ingest.options.NamedOption;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The connector's configuration (docs/configuration.md): the engine's options ({@link IngestConfig}) and
 * what only a Connect worker gives. {@code topics} / {@code topics.regex} and {@code errors.*} are
 * Connect's own and not defined here; {@link #errorTolerance()} reads {@code errors.tolerance} and
 * {@link #txnAppId()} falls back to the connector's {@code name}, both from the originals.
 *
 * <p>Constructing a config validates every single option and throws {@link ConfigException};
 * cross-field checks are in {@link ConfigValidation}.
 */
public final class MergeSinkConfig extends IngestConfig {
  /** Connect's own options this connector reads but does not define. */
  public static final String CONNECTOR_NAME = "name";
  public static final String ERRORS_TOLERANCE = "errors.tolerance";
  /** Set by the connector in each task's configuration: Connect's number of the task. Not a user option. */
  public static final String TASK_ID = "mergesink.task.id";

  /** The engine's options: the connector defines none of its own. */
  public static final ConfigDef CONFIG_DEF = IngestConfig.configDef();

  public MergeSinkConfig(Map<?, ?> originals) {
    super(CONFIG_DEF, originals);
  }

  /**
   * {@code txn.app.id}, or the connector name when it is not set.
   *
   * @throws ConfigException when neither is set
   */
  @Override
  public String txnAppId() {
    String appId = getString(TableOptions.TXN_APP_ID);
    if (appId != null && !appId.isBlank()) {
      return appId.trim();
    }
    Object name = originals().get(CONNECTOR_NAME);
    if (name == null || name.toString().isBlank()) {
      throw new ConfigException(TableOptions.TXN_APP_ID, null, "is not set and there is no connector 'name' to default to");
    }
    return name.toString().trim();
  }

  /** Connect's {@code name} of the connector, "" for a task made outside a worker. */
  public String connectorName() {
    Object name = originals().get(CONNECTOR_NAME);
    return name == null ? "" : name.toString();
  }

  /**
   * The task's number as Connect counts it ({@link #TASK_ID}), 0 for a task made outside a worker.
   *
   * @throws ConfigException when the value is not a number
   */
  public int taskId() {
    Object id = originals().get(TASK_ID);
    if (id == null) {
      return 0;
    }
    try {
      return Integer.parseInt(id.toString().trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(TASK_ID, id, "expected the task's number, set by the connector");
    }
  }

  /**
   * Connect's {@code errors.tolerance} ({@code none} unless set).
   *
   * @throws ConfigException for a value other than none or all
   */
  public ErrorTolerance errorTolerance() {
    Object value = originals().get(ERRORS_TOLERANCE);
    if (value == null) {
      return ErrorTolerance.NONE;
    }
    try {
      return NamedOption.parse(ErrorTolerance.class, ERRORS_TOLERANCE, value.toString());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(ERRORS_TOLERANCE, value, "expected none or all");
    }
  }
}
