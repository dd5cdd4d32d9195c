package io.mergesink.ingest.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.ingest.FlushOutcome;
import io.mergesink.ingest.IngestEngine;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One task's flush held at its commit while another task commits: the race a task's re-plan (or
 * decision again) must survive. Needs a table root of {@link GatedStorage}.
 */
public final class HeldCommit {
  private static final int TIMEOUT_SECONDS = 60;
  private static final String HELD_THREAD = "held-task";

  private HeldCommit() {}

  /**
   * Flushes {@code held} on a thread of its own, holds its first write to {@code table}'s log until
   * {@code meanwhile} has flushed on this thread, then lets it go on; asserts that both flushes complete.
   */
  public static void flushWhileHeld(IngestEngine held, String table, IngestEngine meanwhile) throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean holdOnce = new AtomicBoolean(true);
    ExecutorService executor = Executors.newSingleThreadExecutor(task -> new Thread(task, HELD_THREAD));
    try {
      Future<FlushOutcome> heldFlush = executor.submit(() -> {
        GatedStorage.gate((path, content) -> {
          if (path.contains("/" + table + "/_delta_log/") && Thread.currentThread().getName().equals(HELD_THREAD)
              && holdOnce.compareAndSet(true, false)) {
            reached.countDown();
            try {
              release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
        return held.flush();
      });
      assertThat(reached.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the held task reached its commit").isTrue();
      assertThat(meanwhile.flush()).as("the other task commits while it is held").isEqualTo(FlushOutcome.COMPLETE);
      release.countDown();
      assertThat(heldFlush.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the held task's flush, let go").isEqualTo(FlushOutcome.COMPLETE);
    } finally {
      release.countDown();
      executor.shutdownNow();
    }
  }
}
