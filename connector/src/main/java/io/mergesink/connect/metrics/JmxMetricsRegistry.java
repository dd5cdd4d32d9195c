package io.mergesink.connect.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.utils.Time;

/**
 * The task's metrics on workers without plugin metrics (before Kafka 4.1): a {@link Metrics} of the
 * task's own with a {@link JmxReporter}, under the MBean name Connect 4.1+ gives plugin metrics
 * ({@code kafka.connect:type=plugins,connector=...,task=...}), so dashboards need not know the
 * worker version. Only JMX: the worker's other metrics reporters do not see these.
 */
final class JmxMetricsRegistry implements MetricsRegistry {
  /** The JMX domain and metric group of Connect's plugin metrics ({@code ConnectMetrics}, {@code PluginMetricsImpl}). */
  static final String JMX_DOMAIN = "kafka.connect";
  static final String GROUP = "plugins";

  private final Metrics metrics;
  private final Map<String, String> tags;

  JmxMetricsRegistry(String connector, int task) {
    this.tags = new LinkedHashMap<>();
    tags.put("connector", connector);
    tags.put("task", Integer.toString(task));
    this.metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
        new KafkaMetricsContext(JMX_DOMAIN));
  }

  @Override
  public MetricName metricName(String name, String description) {
    return metrics.metricName(name, GROUP, description, tags);
  }

  @Override
  public MetricName metricName(String name, String description, Map<String, String> extraTags) {
    Map<String, String> all = new LinkedHashMap<>(tags);
    all.putAll(extraTags);
    return metrics.metricName(name, GROUP, description, all);
  }

  @Override
  public void addMetric(MetricName name, MetricValueProvider<?> valueProvider) {
    metrics.addMetric(name, valueProvider);
  }

  @Override
  public Sensor addSensor(String name) {
    return metrics.sensor(name);
  }

  /** Unregisters the MBeans. */
  @Override
  public void close() {
    metrics.close();
  }
}
