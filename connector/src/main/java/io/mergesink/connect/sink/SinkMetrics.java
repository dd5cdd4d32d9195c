package io.mergesink.connect.sink;

import io.mergesink.connect.metrics.MetricsRegistry;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Percentile;
import org.apache.kafka.common.metrics.stats.Percentiles;

/**
 * The task's metrics, registered as Connect plugin metrics so they appear over JMX with the
 * worker's own ({@code kafka.connect:type=plugins}, tagged with connector and task); on workers
 * before Kafka 4.1 under the same names through JMX directly ({@link MetricsRegistry}).
 */
final class SinkMetrics implements AutoCloseable {
  /** 1,000 buckets, finer for short commits; commits longer than a minute count as a minute. */
  private static final int PERCENTILE_BUCKET_BYTES = 4_000;
  private static final double MAX_TRACKED_COMMIT_MS = 60_000;

  private final MetricsRegistry metrics;
  private final Sensor commits;
  private final Sensor rowsWritten;
  private final Sensor replaysSkipped;
  private final Sensor deadLettered;
  private final Sensor fenced;

  /** @param buffered the number of changes currently buffered */
  SinkMetrics(MetricsRegistry metrics, LongSupplier buffered) {
    this.metrics = metrics;
    metrics.addMetric(name("buffered-records", "Changes buffered and not yet committed"),
        (Gauge<Long>) (config, now) -> buffered.getAsLong());
    this.commits = metrics.addSensor("mergesink-commits");
    commits.add(name("commit-total", "Table commits made"), new CumulativeCount());
    commits.add(name("commit-latency-avg-ms", "Average time of a table commit, planning included"), new Avg());
    commits.add(name("commit-latency-max-ms", "Longest time of a table commit, planning included"), new Max());
    commits.add(new Percentiles(PERCENTILE_BUCKET_BYTES, MAX_TRACKED_COMMIT_MS, Percentiles.BucketSizing.LINEAR,
        new Percentile(name("commit-latency-p50-ms", "Median time of a table commit, planning included"), 50),
        new Percentile(name("commit-latency-p99-ms", "99th percentile time of a table commit, planning included"), 99)));
    this.rowsWritten = counter("rows-written-total", "Rows written to data files (upserts, appends, rewritten rows)");
    this.replaysSkipped = counter("records-skipped-replay-total", "Records skipped because their table already held them");
    this.deadLettered = counter("records-dlq-total", "Records sent to the dead letter queue");
    this.fenced = counter("fenced-total", "Commits refused because another task took a partition over");
  }

  void commit(long latencyMs, long rows) {
    commits.record(latencyMs);
    rowsWritten.record(rows);
  }

  void replaySkipped() {
    replaysSkipped.record();
  }

  void deadLettered() {
    deadLettered.record();
  }

  void fenced() {
    fenced.record();
  }

  @Override
  public void close() {
    metrics.close();
  }

  private Sensor counter(String metric, String description) {
    Sensor sensor = metrics.addSensor("mergesink-" + metric);
    sensor.add(name(metric, description), new CumulativeSum());
    return sensor;
  }

  private MetricName name(String metric, String description) {
    return metrics.metricName(metric, description);
  }
}
