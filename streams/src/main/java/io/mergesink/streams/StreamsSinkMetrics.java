package io.mergesink.streams;

import io.mergesink.core.storage.RequestCounts;
import io.mergesink.ingest.metrics.IngestMetrics;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor.RecordingLevel;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * The engine's reports as Streams metrics of the task (group {@code stream-mergesink-metrics},
 * tags {@code thread-id} and {@code mergesink-id} = {@code <store>.<task>}), named as the
 * connector's: {@code commit-latency-avg} / {@code -max}, {@code commit-rate} / {@code -total},
 * {@code rows-written-total}, {@code records-skipped-replay-total}, {@code fenced-total}.
 */
final class StreamsSinkMetrics implements IngestMetrics, AutoCloseable {
  static final String SCOPE = "mergesink";
  private static final String GROUP = "stream-" + SCOPE + "-metrics";

  private final StreamsMetrics metrics;
  private final Sensor commits;
  private final Sensor rowsWritten;
  private final Sensor replaysSkipped;
  private final Sensor fenced;

  StreamsSinkMetrics(StreamsMetrics metrics, String entity) {
    this.metrics = metrics;
    this.commits = metrics.addLatencyRateTotalSensor(SCOPE, entity, "commit", RecordingLevel.INFO);
    this.replaysSkipped = metrics.addRateTotalSensor(SCOPE, entity, "records-skipped-replay", RecordingLevel.INFO);
    this.fenced = metrics.addRateTotalSensor(SCOPE, entity, "fenced", RecordingLevel.INFO);
    this.rowsWritten = metrics.addSensor(SCOPE + "." + entity + ".rows-written", RecordingLevel.INFO);
    rowsWritten.add(new MetricName("rows-written-total", GROUP, "Rows written to data files (upserts, appends, rewritten rows)",
        Map.of("thread-id", Thread.currentThread().getName(), SCOPE + "-id", entity)), new CumulativeSum());
  }

  @Override
  public void committed(long latencyMs, long rows, RequestCounts requests) {
    commits.record(latencyMs);
    rowsWritten.record(rows);
  }

  @Override
  public void replaySkipped() {
    replaysSkipped.record();
  }

  @Override
  public void fenced() {
    fenced.record();
  }

  @Override
  public void close() {
    List.of(commits, rowsWritten, replaysSkipped, fenced).forEach(metrics::removeSensor);
  }
}
