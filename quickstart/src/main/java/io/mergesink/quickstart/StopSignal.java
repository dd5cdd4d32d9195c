package io.mergesink.quickstart;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A request to end the demo early (Ctrl-C): the workload stops after its current round, the demo
 * still waits for the sink, prints its summary and stops everything. Thread-safe.
 */
final class StopSignal {
  private final CountDownLatch requested = new CountDownLatch(1);

  void request() {
    requested.countDown();
  }

  boolean requested() {
    return requested.getCount() == 0;
  }

  /**
   * Waits up to {@code timeout} for a stop request: the pause between two rounds, cut short by Ctrl-C.
   *
   * @return whether a stop was requested
   */
  boolean await(Duration timeout) {
    try {
      return requested.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }
}
