package io.mergesink.localconnect;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The metrics of connectors' tasks in this JVM's {@link LocalConnect} workers, read over JMX: what a
 * sink measures itself, and what Connect measures of every task.
 */
public final class ConnectMetrics {
  private ConnectMetrics() {}

  /**
   * The values of sink metric {@code metric} of connector {@code connector}'s tasks, as JMX shows
   * them (Connect registers plugin metrics under {@code kafka.connect:...plugins...}).
   */
  public static List<Double> taskMetric(String connector, String metric) {
    List<Double> found = new ArrayList<>();
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      for (ObjectName bean : server.queryNames(new ObjectName("kafka.connect:*"), null)) {
        if (connector.equals(bean.getKeyProperty("connector")) && bean.toString().contains("plugins")) {
          for (MBeanAttributeInfo attribute : server.getMBeanInfo(bean).getAttributes()) {
            if (attribute.getName().equals(metric) && server.getAttribute(bean, metric) instanceof Number number) {
              found.add(number.doubleValue());
            }
          }
        }
      }
      return found;
    } catch (JMException e) {
      throw new IllegalStateException("cannot read metric " + metric + " of connector " + connector + " over JMX", e);
    }
  }

  /**
   * The values of Connect's own task metric {@code metric} in group {@code type} (e.g.
   * {@code sink-task-metrics}, {@code connector-task-metrics}) of connector {@code connector}'s
   * tasks: the figures every sink has, whatever it measures itself.
   */
  public static List<Double> connectTaskMetric(String connector, String type, String metric) {
    List<Double> found = new ArrayList<>();
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      for (ObjectName bean : server.queryNames(new ObjectName("kafka.connect:type=" + type + ",*"), null)) {
        if (connector.equals(bean.getKeyProperty("connector")) && server.getAttribute(bean, metric) instanceof Number number) {
          found.add(number.doubleValue());
        }
      }
      return found;
    } catch (JMException e) {
      throw new IllegalStateException("cannot read metric " + type + "/" + metric + " of connector " + connector
          + " over JMX", e);
    }
  }
}
