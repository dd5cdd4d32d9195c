package io.mergesink.connect.reliability;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * What Connect gives a sink task, as a plain recording class: the seeks the task asks for, its
 * assignment, a dead letter queue that keeps what is reported, and real plugin metrics.
 */
final class TestTaskContext implements SinkTaskContext {
  private final Map<String, String> configs;
  private final Set<TopicPartition> assignment = new LinkedHashSet<>();
  private final Map<TopicPartition, Long> seeks = new HashMap<>();
  private final List<SinkRecord> deadLettered = new ArrayList<>();
  private final Metrics metrics = new Metrics();
  private final PluginMetricsImpl pluginMetrics;
  private final boolean withDeadLetterQueue;

  TestTaskContext(Map<String, String> configs, String taskName, boolean withDeadLetterQueue) {
    this.configs = Map.copyOf(configs);
    this.withDeadLetterQueue = withDeadLetterQueue;
    this.pluginMetrics = new PluginMetricsImpl(metrics, Map.of("task", taskName));
  }

  @Override
  public Map<String, String> configs() {
    return configs;
  }

  @Override
  public synchronized void offset(Map<TopicPartition, Long> offsets) {
    seeks.putAll(offsets);
  }

  @Override
  public synchronized void offset(TopicPartition partition, long offset) {
    seeks.put(partition, offset);
  }

  @Override
  public void timeout(long timeoutMs) {}

  @Override
  public synchronized Set<TopicPartition> assignment() {
    return Set.copyOf(assignment);
  }

  @Override
  public void pause(TopicPartition... partitions) {}

  @Override
  public void resume(TopicPartition... partitions) {}

  @Override
  public void requestCommit() {}

  @Override
  public ErrantRecordReporter errantRecordReporter() {
    if (!withDeadLetterQueue) {
      return null;
    }
    return this::report;
  }

  @Override
  public PluginMetrics pluginMetrics() {
    return pluginMetrics;
  }

  synchronized void assign(Collection<TopicPartition> partitions) {
    assignment.addAll(partitions);
  }

  synchronized void unassign(Collection<TopicPartition> partitions) {
    assignment.removeAll(partitions);
  }

  /** The seeks requested since the last call, and forgets them (the consumer applied them). */
  synchronized Map<TopicPartition, Long> takeSeeks() {
    Map<TopicPartition, Long> taken = new HashMap<>(seeks);
    seeks.clear();
    return taken;
  }

  synchronized List<SinkRecord> deadLettered() {
    return List.copyOf(deadLettered);
  }

  void close() {
    metrics.close();
  }

  private synchronized Future<Void> report(SinkRecord record, Throwable error) {
    deadLettered.add(record);
    return CompletableFuture.completedFuture(null);
  }
}
