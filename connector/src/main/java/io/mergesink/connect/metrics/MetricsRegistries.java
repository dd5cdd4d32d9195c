package io.mergesink.connect.metrics;

import java.util.Arrays;
import org.apache.kafka.connect.sink.SinkTaskContext;

/** Chooses where a task's metrics go, by what the worker offers (docs/design.md, "Kafka Connect versions"). */
public final class MetricsRegistries {
  /** Whether the worker's {@code SinkTaskContext} has {@code pluginMetrics()} (Kafka 4.1+); checked once per worker. */
  private static final boolean WORKER_HAS_PLUGIN_METRICS = Arrays.stream(SinkTaskContext.class.getMethods())
      .anyMatch(method -> method.getName().equals("pluginMetrics") && method.getParameterCount() == 0);

  private MetricsRegistries() {}

  /**
   * The registry of task {@code task} of connector {@code connector}: Connect's plugin metrics where
   * the worker has them, else JMX directly under the same MBean names.
   */
  public static MetricsRegistry forTask(SinkTaskContext context, String connector, int task) {
    return WORKER_HAS_PLUGIN_METRICS ? PluginMetricsRegistry.of(context) : new JmxMetricsRegistry(connector, task);
  }
}
