/**
 * Where a task's metrics are registered: Connect's plugin metrics on workers that have them (Kafka
 * 4.1+), else JMX directly under the same names ({@link io.mergesink.connect.metrics.MetricsRegistries}).
 * What the metrics are is {@code sink.SinkMetrics}.
 */
package io.mergesink.connect.metrics;
