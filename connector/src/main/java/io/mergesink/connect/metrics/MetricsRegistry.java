package io.mergesink.connect.metrics;

import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.Sensor;

/**
 * Where one task's metrics are registered: names in the task's metric group (tagged with its
 * connector and task), gauges and sensors. {@link #close()} removes everything the registry
 * added. Not thread-safe beyond what Kafka's {@code Metrics} guarantees; a task registers from its
 * own thread.
 */
public interface MetricsRegistry extends AutoCloseable {
  /** The name of metric {@code name} in the task's group. */
  MetricName metricName(String name, String description);

  /** The name of metric {@code name} in the task's group, with {@code extraTags} beside the task's own. */
  MetricName metricName(String name, String description, Map<String, String> extraTags);

  void addMetric(MetricName name, MetricValueProvider<?> valueProvider);

  /** A new sensor of this task; its name must be unique within the task (other tasks may use it). */
  Sensor addSensor(String name);

  /** Removes every metric and sensor this registry added. */
  @Override
  void close();
}
