package io.mergesink.bench;

import io.mergesink.core.table.DeltaTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * End-to-end latency at a fixed input rate: change events are produced at {@code rate} events/s
 * into a running, caught-up connector; a poller reads the table's txn versions every
 * {@value #POLL_MILLIS} ms, and each event's latency is the time from its send to the first poll
 * that sees its partition's txn version at or past its offset (so it is rounded up to the poll
 * interval). This is produce → visible in the Delta table, which includes the wait for the next
 * commit (commit.interval.ms / offset.flush.interval.ms), not the duration of a commit alone (the
 * sink's JMX commit-latency percentiles give that).
 */
final class E2eLatency {
  static final long POLL_MILLIS = 20;
  private static final double NANOS_PER_MILLI = 1e6;
  private static final double P50 = 0.50;
  private static final double P99 = 0.99;

  /** Latency percentiles in milliseconds and the rate actually achieved. */
  record Latency(double p50Ms, double p99Ms, double maxMs, long samples, double achievedRate) {}

  private E2eLatency() {}

  /**
   * Produces {@code events} events at {@code rate} per second to {@code topic} and measures their latency into {@code table}.
   * The connector must be running and caught up.
   */
  static Latency measure(ChangeProducer changes, String topic, int partitions, E2eWorkload workload, ChangeEncoder encoder,
      DeltaTable table, String appIdPrefix, long events, double rate) throws InterruptedException {
    List<ConcurrentLinkedQueue<long[]>> pending = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      pending.add(new ConcurrentLinkedQueue<>());
    }
    List<Long> latencies = new ArrayList<>();
    Thread poller = new Thread(() -> poll(table, topic, appIdPrefix, pending, latencies, events), "e2e-latency-poller");
    poller.setDaemon(true);
    poller.start();
    long start = System.nanoTime();
    double intervalNanos = 1e9 / rate;
    for (long i = 0; i < events; i++) {
      long due = start + (long) (i * intervalNanos);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      }
      long sent = System.nanoTime();
      E2eWorkload.Change change = workload.next();
      changes.send(topic, partitions, encoder, change, (metadata, error) -> {
        if (error == null) {
          pending.get(metadata.partition()).add(new long[] {metadata.offset(), sent});
        }
      });
    }
    double achieved = events / Seconds.since(start);
    changes.flush();
    poller.join();
    long[] sorted;
    synchronized (latencies) {
      sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    }
    return new Latency(percentile(sorted, P50), percentile(sorted, P99), sorted[sorted.length - 1] / NANOS_PER_MILLI, sorted.length,
        achieved);
  }

  private static void poll(DeltaTable table, String topic, String appIdPrefix, List<ConcurrentLinkedQueue<long[]>> pending,
      List<Long> latencies, long events) {
    long seen = 0;
    while (seen < events) {
      Map<String, Long> txns;
      try {
        txns = table.snapshot().txnVersions();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the txn versions of " + table.root(), e);
      }
      long now = System.nanoTime();
      for (int p = 0; p < pending.size(); p++) {
        Long version = txns.get(appIdPrefix + ":" + topic + ":" + p);
        ConcurrentLinkedQueue<long[]> queue = pending.get(p);
        while (version != null && !queue.isEmpty() && queue.peek()[0] <= version) {
          long[] event = queue.poll();
          synchronized (latencies) {
            latencies.add(now - event[1]);
          }
          seen++;
        }
      }
      BenchConnect.sleep(POLL_MILLIS);
    }
  }

  private static double percentile(long[] sorted, double quantile) {
    int index = (int) Math.ceil(quantile * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / NANOS_PER_MILLI;
  }
}
