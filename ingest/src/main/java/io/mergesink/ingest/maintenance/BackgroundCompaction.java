package io.mergesink.ingest.maintenance;

import io.mergesink.core.maintenance.CompactionResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction beside ingestion (docs/design.md, "Maintenance"): runs go to a thread of the engine's
 * own, each on the snapshot it was prepared with and in a commit of its own, so a flush never waits
 * for one and the front end's poll loop never stalls behind one. The writers meet a compaction's
 * commit like any concurrent commit (plan again or retry on top, never lose a change); the engine
 * also brings a table's writer up to date once its compaction landed ({@link #takeCompacted}).
 *
 * <p>At most one run per table is queued or running; a table asked for again meanwhile gets the
 * newest run asked for once that one ends (a commit may have made files worth compacting that the
 * running one does not see). A failed run only delays compaction: the tables are complete without
 * it. {@link #schedule} and {@link #takeCompacted} are called by the engine's thread.
 */
public final class BackgroundCompaction implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundCompaction.class);
  /** How long {@link #close} lets a run finish before it is interrupted (its outputs are then orphans for vacuum). */
  private static final Duration CLOSE_GRACE = Duration.ofSeconds(10);

  private final ExecutorService thread;
  /** Per table queued or running, the run to make after it (null: none); guarded by itself. */
  private final Map<String, CompactionRun> scheduled = new HashMap<>();
  private final Queue<String> compacted = new ConcurrentLinkedQueue<>();

  /**
   * @param thread a single thread that runs one task after the other, which {@link #close} shuts down;
   *     it may run other work between runs (a pipelined engine's flushes)
   */
  public BackgroundCompaction(ExecutorService thread) {
    this.thread = thread;
  }

  /**
   * Queues {@code run} for {@code table}, or, while a run of the table is queued or running, keeps it
   * to make when that one ends (replacing one kept before); returns whether it queued it now.
   */
  public boolean schedule(String table, CompactionRun run) {
    synchronized (scheduled) {
      if (scheduled.containsKey(table)) {
        scheduled.put(table, run);
        return false;
      }
      scheduled.put(table, null);
      return execute(table, run);
    }
  }

  /** The tables whose compaction committed since the last call, in the order they did. */
  public List<String> takeCompacted() {
    List<String> tables = new ArrayList<>();
    for (String table = compacted.poll(); table != null; table = compacted.poll()) {
      tables.add(table);
    }
    return tables;
  }

  /** Lets a running compaction finish for a while, then interrupts it; queued runs are dropped. */
  @Override
  public void close() {
    thread.shutdown();
    try {
      if (!thread.awaitTermination(CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("A compaction still ran {} after close; interrupting it (its files are left for vacuum)", CLOSE_GRACE);
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private void run(String table, CompactionRun run) {
    try {
      CompactionResult result = run.compact();
      if (result instanceof CompactionResult.Compacted done) {
        LOG.info("Compacted table {} at version {}: {} files into {}, {} deleted rows purged, planned again {} times for concurrent commits",
            table, done.version(), done.filesRemoved(), done.filesAdded(), done.rowsPurged(), done.replans());
        compacted.add(table);
      } else if (result instanceof CompactionResult.GaveWay gaveWay) {
        LOG.info("Compaction of table {} gave way to concurrent commits {} times and is retried after a later commit: {}", table,
            gaveWay.attempts(), gaveWay.lastReason());
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Compaction of table {} failed; it is retried after a later commit: {}", table, e.toString());
    } finally {
      synchronized (scheduled) {
        CompactionRun next = scheduled.put(table, null);
        if (next == null) {
          scheduled.remove(table);
        } else {
          execute(table, next);
        }
      }
    }
  }

  /** Hands {@code run} to the thread; called holding the lock of {@link #scheduled}, where {@code table} is. */
  private boolean execute(String table, CompactionRun run) {
    try {
      thread.execute(() -> run(table, run));
      return true;
    } catch (RejectedExecutionException e) {
      scheduled.remove(table);
      return false;
    }
  }
}
