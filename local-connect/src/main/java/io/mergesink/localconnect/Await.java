package io.mergesink.localconnect;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for a condition by polling it, never by sleeping a fixed time: returns as soon as the
 * condition holds, and fails after a timeout with what was last observed. A probe that throws is
 * polled again (the condition may not be observable yet), except for a
 * {@link ConnectorFailedException}, which ends the wait at once.
 */
public final class Await {
  /** Pause between two polls; only bounds how often the probe runs, never how long a test waits. */
  private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

  private Await() {}

  /**
   * Polls {@code probe} until {@code done} accepts its value and returns that value.
   *
   * @param what what is awaited, for the failure message ("3 records in topic t")
   * @throws AssertionError when {@code timeout} passes first; the message names {@code what} and
   *     the last value observed (or the exception the probe last threw)
   */
  public static <T> T until(String what, Duration timeout, Supplier<T> probe, Predicate<? super T> done) {
    return poll(what, timeout, probe, done, AssertionError::new);
  }

  /** {@link #until(String, Duration, Supplier, Predicate)} for a yes/no condition. */
  public static void until(String what, Duration timeout, Supplier<Boolean> condition) {
    until(what, timeout, condition, Boolean.TRUE::equals);
  }

  /**
   * {@link #until(String, Duration, Supplier, Predicate)} for {@link LocalConnect}, whose callers
   * are programs as well as tests.
   *
   * @throws IllegalStateException when {@code timeout} passes first
   */
  static <T> T poll(String what, Duration timeout, Supplier<T> probe, Predicate<? super T> done) {
    return poll(what, timeout, probe, done, IllegalStateException::new);
  }

  private static <T, X extends Throwable> T poll(String what, Duration timeout, Supplier<T> probe,
      Predicate<? super T> done, Function<String, X> timedOut) throws X {
    long deadline = System.nanoTime() + timeout.toNanos();
    T last = null;
    RuntimeException lastError = null;
    while (true) {
      try {
        last = probe.get();
        lastError = null;
        if (done.test(last)) {
          return last;
        }
      } catch (ConnectorFailedException e) {
        throw e;
      } catch (RuntimeException e) {
        lastError = e;
      }
      if (System.nanoTime() - deadline > 0) {
        X failure = timedOut.apply("timed out after " + timeout + " waiting for " + what
            + (lastError == null ? "; last observed: " + last : "; last probe failed: " + lastError));
        if (lastError != null) {
          failure.initCause(lastError);
        }
        throw failure;
      }
      try {
        Thread.sleep(POLL_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
    }
  }
}
