package io.mergesink.connect.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * The JMX fallback for workers before Kafka 4.1 publishes a task's metrics exactly where a 4.1+
 * worker publishes plugin metrics: the same MBean, the same attributes, live values.
 */
class JmxMetricsRegistryTest {
  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

  @Test
  void publishesUnderTheMBeanNamesOfConnectPluginMetrics() throws JMException {
    Map<ObjectName, Map<String, Object>> fromWorker;
    // What Kafka 4.3's worker does for a task (ConnectMetrics: JMX domain kafka.connect, tags connector and task).
    try (Metrics workerMetrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
        new KafkaMetricsContext("kafka.connect"))) {
      Map<String, String> tags = new LinkedHashMap<>();
      tags.put("connector", "orders-sink");
      tags.put("task", "3");
      PluginMetrics plugin = new PluginMetricsImpl(workerMetrics, tags);
      Sensor sensor = plugin.addSensor("commits");
      sensor.add(plugin.metricName("commit-total", "Commits", new LinkedHashMap<>()), new CumulativeSum());
      plugin.addMetric(plugin.metricName("buffered-records", "Buffered", new LinkedHashMap<>()), (Gauge<Long>) (config, now) -> 7L);
      sensor.record(2);
      fromWorker = beans("orders-sink");
    }
    assertThat(beans("orders-sink")).as("MBeans after the worker's metrics closed").isEmpty();

    Map<ObjectName, Map<String, Object>> fromFallback;
    try (JmxMetricsRegistry registry = new JmxMetricsRegistry("orders-sink", 3)) {
      Sensor sensor = registry.addSensor("commits");
      sensor.add(registry.metricName("commit-total", "Commits"), new CumulativeSum());
      registry.addMetric(registry.metricName("buffered-records", "Buffered"), (Gauge<Long>) (config, now) -> 7L);
      sensor.record(2);
      fromFallback = beans("orders-sink");
    }

    assertThat(fromFallback).isEqualTo(fromWorker);
    assertThat(fromFallback.keySet()).containsExactly(new ObjectName("kafka.connect:type=plugins,connector=orders-sink,task=3"));
    assertThat(fromFallback.values().iterator().next()).containsEntry("commit-total", 2.0).containsEntry("buffered-records", 7L);
    assertThat(beans("orders-sink")).as("MBeans after the registry closed").isEmpty();
  }

  /** Every MBean of {@code connector}'s plugin metrics with its attribute values. */
  private static Map<ObjectName, Map<String, Object>> beans(String connector) throws JMException {
    Map<ObjectName, Map<String, Object>> beans = new TreeMap<>();
    Set<ObjectName> names = SERVER.queryNames(new ObjectName("kafka.connect:type=plugins,connector=" + connector + ",*"), null);
    for (ObjectName name : names) {
      Map<String, Object> attributes = new TreeMap<>();
      for (MBeanAttributeInfo attribute : SERVER.getMBeanInfo(name).getAttributes()) {
        attributes.put(attribute.getName(), SERVER.getAttribute(name, attribute.getName()));
      }
      beans.put(name, attributes);
    }
    return beans;
  }
}
