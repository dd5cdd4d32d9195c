package io.mergesink.connect.metrics;

import io.mergesink.connect.compat.RequiresWorker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The task's metrics in Connect's plugin metrics (KIP-877, workers 4.1 and newer): the worker
 * tags them with connector and task and publishes them with its own
 * ({@code kafka.connect:type=plugins,connector=...,task=...} over JMX, and to its metrics reporters).
 */
@RequiresWorker("4.1")
final class PluginMetricsRegistry implements MetricsRegistry {
  private final PluginMetrics metrics;
  /** The task's tags, e.g. {connector=orders, task=0}. */
  private final String sensorSuffix;
  private final List<MetricName> added = new ArrayList<>();
  private final List<String> sensors = new ArrayList<>();

  PluginMetricsRegistry(PluginMetrics metrics) {
    this.metrics = metrics;
    // Sensor names are global in the worker's Metrics, which all its tasks share: a sensor of another
    // task with the same name would be handed back, count for both and vanish when that task stops.
    this.sensorSuffix = metrics.metricName("sensor-scope", "", new LinkedHashMap<>()).tags().toString();
  }

  static PluginMetricsRegistry of(SinkTaskContext context) {
    return new PluginMetricsRegistry(context.pluginMetrics());
  }

  @Override
  public MetricName metricName(String name, String description) {
    return metrics.metricName(name, description, new LinkedHashMap<>());
  }

  @Override
  public MetricName metricName(String name, String description, Map<String, String> extraTags) {
    return metrics.metricName(name, description, new LinkedHashMap<>(extraTags));
  }

  @Override
  public void addMetric(MetricName name, MetricValueProvider<?> valueProvider) {
    metrics.addMetric(name, valueProvider);
    added.add(name);
  }

  @Override
  public Sensor addSensor(String name) {
    String taskSensor = name + sensorSuffix;
    Sensor sensor = metrics.addSensor(taskSensor);
    sensors.add(taskSensor);
    return sensor;
  }

  /** Removes what this registry added; the worker closes its plugin metrics itself when the task stops. */
  @Override
  public void close() {
    added.forEach(metrics::removeMetric);
    sensors.forEach(metrics::removeSensor);
    added.clear();
    sensors.clear();
  }
}
