package io.mergesink.connect.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.junit.jupiter.api.Test;

/**
 * Two tasks of one connector in one worker share the worker's {@link Metrics} (Connect 4.1+ gives
 * each a {@link PluginMetricsImpl} over it): each task's metrics count its own records only, and
 * stay when the other task stops.
 */
class PluginMetricsRegistryTest {
  @Test
  void tasksInOneWorkerKeepTheirOwnSensors() {
    try (Metrics worker = new Metrics()) {
      PluginMetricsRegistry task0 = new PluginMetricsRegistry(new PluginMetricsImpl(worker, tags(0)));
      PluginMetricsRegistry task1 = new PluginMetricsRegistry(new PluginMetricsImpl(worker, tags(1)));
      Sensor commits0 = commits(task0);
      Sensor commits1 = commits(task1);

      commits0.record();
      commits0.record();
      commits1.record();
      assertThat(commitTotal(worker, 0)).isEqualTo(2.0);
      assertThat(commitTotal(worker, 1)).isEqualTo(1.0);

      task1.close();
      commits0.record();
      assertThat(commitTotal(worker, 0)).as("task 0 after task 1 stopped").isEqualTo(3.0);
      assertThat(worker.metrics()).doesNotContainKey(name(worker, 1));
      task0.close();
      assertThat(worker.metrics()).doesNotContainKey(name(worker, 0));
    }
  }

  private static Sensor commits(PluginMetricsRegistry registry) {
    Sensor sensor = registry.addSensor("mergesink-commits");
    sensor.add(registry.metricName("commit-total", "Commits"), new CumulativeSum());
    return sensor;
  }

  private static Object commitTotal(Metrics worker, int task) {
    KafkaMetric metric = worker.metrics().get(name(worker, task));
    return metric == null ? null : metric.metricValue();
  }

  private static MetricName name(Metrics worker, int task) {
    return worker.metricName("commit-total", "plugins", "Commits", tags(task));
  }

  private static Map<String, String> tags(int task) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("connector", "orders-sink");
    tags.put("task", Integer.toString(task));
    return tags;
  }
}
