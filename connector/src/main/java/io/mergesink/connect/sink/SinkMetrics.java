package io.mergesink.connect.sink;

import io.mergesink.connect.metrics.MetricsRegistry;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.ingest.metrics.IngestMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
public final class SinkMetrics implements IngestMetrics, AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SinkMetrics.class);
  /** 1,000 buckets, finer for short commits; commits longer than a minute count as a minute. */
  private static final int PERCENTILE_BUCKET_BYTES = 4_000;
  private static final double MAX_TRACKED_COMMIT_MS = 60_000;

  private final MetricsRegistry metrics;
  private final Sensor commits;
  private final Sensor rowsWritten;
  private final Sensor replaysSkipped;
  private final Sensor deadLettered;
  private final Sensor staleSkipped;
  private final Sensor fenced;
  private final Sensor transactionsInPieces;
  private final Sensor commitRequests;
  private final List<String> gaugesHeldElsewhere = new ArrayList<>();

  public SinkMetrics(MetricsRegistry metrics) {
    this.metrics = metrics;
    this.commitRequests = metrics.addSensor("mergesink-commit-storage-requests");
    commitRequests.add(name("commit-storage-requests-avg", "Average storage requests of a table commit, planning included"),
        new Avg());
    commitRequests.add(name("commit-storage-requests-max", "Most storage requests of one table commit, planning included"),
        new Max());
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
    this.transactionsInPieces = counter("transactions-in-pieces-total", "Source transactions larger than a partition's buffer, "
        + "landed in pieces (docs/transactions.md)");
    this.staleSkipped = counter("changes-skipped-stale-total", "Changes skipped because their key had a newer one by "
        + "upsert.order.by, in the buffer or in the table");
  }

  /**
   * Registers the gauges {@code engine} answers: what it buffers, its source transactions and cuts, and
   * its storage requests by kind.
   */
  public void registerGauges(IngestEngine engine) {
    for (RequestKind kind : RequestKind.values()) {
      MetricName name = metrics.metricName("storage-requests-total", "Storage requests made (on S3 one per HTTP "
          + "request, the SDK's retries not counted again), by kind", Map.of("kind", kind.metricName()));
      gauge(name, (config, now) -> engine.storageRequests().get(kind));
    }
    gauge(name("buffered-records", "Changes buffered and not yet committed"), (config, now) -> engine.bufferedChanges());
    gauge(name("key-index-bytes", "Heap the key indexes of the task's tables took after the last flush, an estimate "
        + "(index.memory.max.bytes bounds the share of tables that took no changes)"), (config, now) -> engine.keyIndexHeapBytes());
    gauge(name("open-transactions", "Source transactions read in part and held back until they are known complete "
        + "(transaction.boundaries)"), (config, now) -> (long) engine.openTransactions());
    gauge(name("cut-lag-ms", "Source time from the consistent cut the task commits up to, to the newest change of a source "
        + "transaction it read (cut.interval.ms; 0 without cuts)"), (config, now) -> engine.cutLagMillis());
    gauge(name("published-cut-lag-ms", "In the task that publishes consistent cuts, source time from the newest cut "
        + "published to the newest cut a table's commit holds (0 in other tasks)"), (config, now) -> engine.publishedCutLagMillis());
    if (!gaugesHeldElsewhere.isEmpty()) {
      LOG.warn("Metrics {} are still registered by an instance of this task that has not stopped; this instance does "
          + "not report them until it restarts", gaugesHeldElsewhere);
    }
  }

  @Override
  public void committed(long latencyMs, long rows, RequestCounts requests) {
    commits.record(latencyMs);
    rowsWritten.record(rows);
    commitRequests.record(requests.total());
  }

  @Override
  public void replaySkipped() {
    replaysSkipped.record();
  }

  @Override
  public void staleChangesSkipped(long changes) {
    staleSkipped.record(changes);
  }

  @Override
  public void fenced() {
    fenced.record();
  }

  @Override
  public void transactionsInPieces(int count) {
    transactionsInPieces.record(count);
  }

  /** A record went to the dead letter queue. */
  public void deadLettered() {
    deadLettered.record();
  }

  @Override
  public void close() {
    metrics.close();
  }

  /**
   * Registers a gauge, unless an earlier instance of this task still holds its name: a worker that
   * gave up waiting for a task to stop ({@code task.shutdown.graceful.timeout.ms}) may start the task
   * again while the old instance is still closing. Then this instance goes without the gauge rather
   * than failing to start. Sensors need no such care: the registry hands out the existing one.
   */
  private void gauge(MetricName name, Gauge<Long> gauge) {
    try {
      metrics.addMetric(name, gauge);
    } catch (IllegalArgumentException e) {
      gaugesHeldElsewhere.add(name.name() + name.tags());
    }
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
