package io.mergesink.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.MDC;

/**
 * The engine's bounded pool for the table commits of a flush ({@code flush.commit.threads}). With
 * one thread every job runs on the calling thread, one after the other; with more, on daemon threads
 * the engine owns, which carry the caller's logging context (Connect's connector and task names).
 * A call returns only when every job it was given has finished, so nothing of a flush runs after it.
 */
final class CommitThreads implements AutoCloseable {
  private final ExecutorService pool;

  /** @param name names the threads, e.g. the txn app id of the task */
  CommitThreads(int threads, String name) {
    if (threads < 1) {
      throw new IllegalArgumentException("commit threads must be at least 1, found " + threads);
    }
    this.pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, daemons("mergesink-commit-" + name + "-"));
  }

  /**
   * Runs {@code jobs}, at most {@code threads} at once, and returns their results in the order of
   * the jobs. Jobs must not throw: a job reports its failures in its result. Waits for every job
   * even when interrupted (the interrupt is kept for the caller).
   */
  <T> List<T> runAll(List<Supplier<T>> jobs) {
    List<T> results = new ArrayList<>(jobs.size());
    if (pool == null || jobs.size() < 2) {
      jobs.forEach(job -> results.add(job.get()));
      return results;
    }
    Map<String, String> context = MDC.getCopyOfContextMap();
    List<Future<T>> futures = new ArrayList<>(jobs.size());
    for (Supplier<T> job : jobs) {
      futures.add(pool.submit(() -> withContext(context, job)));
    }
    boolean interrupted = false;
    Throwable thrown = null;
    for (Future<T> future : futures) {
      while (true) {
        try {
          results.add(future.get());
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          thrown = thrown == null ? e.getCause() : thrown;
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (thrown != null) {
      throw new IllegalStateException("a commit job threw instead of reporting its failure", thrown);
    }
    return results;
  }

  /** Stops the threads; called when no flush runs. */
  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  private static <T> T withContext(Map<String, String> context, Supplier<T> job) {
    if (context == null) {
      MDC.clear();
    } else {
      MDC.setContextMap(context);
    }
    try {
      return job.get();
    } finally {
      MDC.clear();
    }
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
