package io.mergesink.quickstart;

import io.mergesink.localconnect.ConnectorFailedException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition by polling it: returns as soon as it holds, fails after a timeout with
 * what was awaited and the last error the probe threw. A {@link ConnectorFailedException} from the
 * probe ends the wait at once.
 */
final class Waits {
  /** Pause between two polls; only bounds how often the probe runs. */
  static final Duration POLL_INTERVAL = Duration.ofMillis(200);

  private Waits() {}

  /**
   * Polls {@code condition} until it holds.
   *
   * @param what what is awaited, for the failure message
   * @throws IllegalStateException when {@code timeout} passes first, or the thread is interrupted
   * @throws ConnectorFailedException when the probe throws it
   */
  static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException lastError = null;
    while (true) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
        lastError = null;
      } catch (ConnectorFailedException e) {
        throw e;
      } catch (RuntimeException e) {
        lastError = e;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what
            + (lastError == null ? "" : "; last check failed: " + lastError.getMessage()), lastError);
      }
      pause(what);
    }
  }

  private static void pause(String what) {
    try {
      Thread.sleep(POLL_INTERVAL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + what, e);
    }
  }
}
