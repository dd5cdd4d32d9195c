package io.mergesink.ingest.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.ingest.IngestEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Engines of several tasks on one table, flushed at the same moment on threads of their own. */
public final class RacingFlushes implements AutoCloseable {
  private static final int FLUSH_TIMEOUT_SECONDS = 120;
  private static final int DRAIN_FLUSHES = 5;

  private final ExecutorService executor;
  private final List<IngestEngine> engines;

  public RacingFlushes(IngestEngine... engines) {
    this.engines = List.of(engines);
    this.executor = Executors.newFixedThreadPool(engines.length);
  }

  /** Flushes every engine at once and waits for all of them. */
  public void flushAtOnce() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> flushes = new ArrayList<>();
    for (IngestEngine engine : engines) {
      flushes.add(executor.submit(() -> {
        start.await();
        return engine.flush();
      }));
    }
    start.countDown();
    for (Future<?> flush : flushes) {
      flush.get(FLUSH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /**
   * Flushes each engine until its buffer is empty: a flush the other tasks' commits kept deciding
   * again kept its buffer, and lands now.
   */
  public void drain() {
    for (IngestEngine engine : engines) {
      for (int attempt = 0; attempt < DRAIN_FLUSHES && engine.bufferedChanges() > 0; attempt++) {
        engine.flush();
      }
      assertThat(engine.bufferedChanges()).isZero();
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
