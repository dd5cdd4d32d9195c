package io.mergesink.ingest;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.MDC;

/**
 * Where the commits of a flush run: on the engine's background thread ({@link #launch}, with {@code
 * flush.pipelined=true}), while the engine's thread goes on reading, or on the engine's thread
 * ({@link #runHere}, for a flush the caller waits for at once). At most one flush is in flight; it
 * is {@link Flush#plan() planned} before and {@link Flush#apply() applied} after on the engine's
 * thread, and {@link #land()} hands it back.
 */
final class FlushInFlight implements AutoCloseable {
  private final ExecutorService thread;
  private Flush flush;
  private Future<?> commits;

  /**
   * @param thread the single thread the commits of a launched flush run on, after the work queued on it
   *     before (the engine's compactions); null to run them on the caller's ({@code flush.pipelined=false}).
   *     Its owner shuts it down.
   */
  FlushInFlight(ExecutorService thread) {
    this.thread = thread;
  }

  /**
   * Runs the commits of {@code planned} on this thread; {@link #land()} hands it back.
   *
   * @throws IllegalStateException a flush is in flight already
   */
  void runHere(Flush planned) {
    requireNoneInFlight();
    flush = planned;
    commits = null;
    planned.commit();
  }

  /**
   * Starts the commits of {@code planned} on the thread of their own; without one ({@code
   * flush.pipelined=false}) they run here, before this returns.
   *
   * @throws IllegalStateException a flush is in flight already
   */
  void launch(Flush planned) {
    if (thread == null) {
      runHere(planned);
      return;
    }
    requireNoneInFlight();
    flush = planned;
    Map<String, String> context = MDC.getCopyOfContextMap();
    commits = thread.submit(() -> {
      if (context != null) {
        MDC.setContextMap(context);
      }
      try {
        planned.commit();
      } finally {
        MDC.clear();
      }
    });
  }

  private void requireNoneInFlight() {
    if (flush != null) {
      throw new IllegalStateException("a flush is in flight already; land it before the next one starts");
    }
  }

  /** Whether a flush was launched and not landed yet. */
  boolean inFlight() {
    return flush != null;
  }

  /** Whether the commits of the flush in flight have finished, so that {@link #land()} does not wait; false when none is. */
  boolean finished() {
    return flush != null && (commits == null || commits.isDone());
  }

  /**
   * Waits for the commits of the flush in flight to finish, even when interrupted (the interrupt is
   * kept for the caller), and hands the flush back, to {@link Flush#apply() apply} it.
   *
   * @return null when no flush is in flight
   * @throws RuntimeException what the commits threw instead of reporting it in their attempts
   */
  Flush land() {
    Flush landed = flush;
    if (landed == null) {
      return null;
    }
    Future<?> running = commits;
    flush = null;
    commits = null;
    if (running != null) {
      awaitUninterruptibly(running);
    }
    return landed;
  }

  /** Waits for the flush in flight, if any: its commits land or fail, nothing of it is applied. */
  @Override
  public void close() {
    land();
  }

  private static void awaitUninterruptibly(Future<?> running) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          running.get();
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException cause) {
            throw cause;
          }
          if (e.getCause() instanceof Error cause) {
            throw cause;
          }
          throw new IllegalStateException("the commits of a flush failed", e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
