package io.mergesink.bench;

import io.mergesink.localconnect.LocalConnect;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.connect.runtime.WorkerConfig;

/**
 * The benchmarks' Kafka broker and Connect worker ({@link LocalConnect}), with the worker's offset
 * flush interval and metrics window the suites measure with, and how the suites poll.
 */
final class BenchConnect {
  private static final Duration STATE_TIMEOUT = Duration.ofSeconds(120);
  private static final int METRICS_SAMPLES = 10;
  private static final long POLL_MILLIS = 50;

  private BenchConnect() {}

  /**
   * Starts the broker and one worker; sink tasks get {@code preCommit} every {@code offsetFlushMillis}.
   * The worker's sampled metrics (the sink's commit-latency percentiles among them) cover the last
   * {@code metricsWindowMillis}: {@value #METRICS_SAMPLES} samples that split the window, a sample
   * kept while its last recording is younger than the window. {@code moreWorkerProps}
   * ({@code plugin.path} and such) and {@code brokerProps} are added to those.
   */
  static LocalConnect start(long offsetFlushMillis, long metricsWindowMillis, Map<String, String> moreWorkerProps,
      Map<String, String> brokerProps) {
    Map<String, String> props = new HashMap<>();
    props.put(WorkerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, Long.toString(offsetFlushMillis));
    props.put(WorkerConfig.METRICS_NUM_SAMPLES_CONFIG, Integer.toString(METRICS_SAMPLES));
    props.put(WorkerConfig.METRICS_SAMPLE_WINDOW_MS_CONFIG, Long.toString(metricsWindowMillis / METRICS_SAMPLES));
    props.putAll(moreWorkerProps);
    return LocalConnect.builder()
        .name("mergesink-bench")
        .workerProps(props)
        .brokerProps(brokerProps)
        .timeout(STATE_TIMEOUT)
        .start();
  }

  /**
   * Polls {@code condition} until it holds; an exception it throws ends the wait.
   *
   * @throws IllegalStateException when it does not hold within 120 s
   */
  static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + STATE_TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + STATE_TIMEOUT + " waiting for " + what);
      }
      sleep(POLL_MILLIS);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
