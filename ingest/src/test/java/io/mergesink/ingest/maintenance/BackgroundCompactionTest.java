package io.mergesink.ingest.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.maintenance.CompactionResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A table asked for while its run is queued or running gets the newest run asked for afterwards, once. */
class BackgroundCompactionTest {
  private static final CompactionResult NOTHING = new CompactionResult.NothingToCompact(1);

  @Test
  void aRunAskedForWhileOneRunsIsMadeAfterItAndOnlyTheNewest() throws Exception {
    List<String> ran = new CopyOnWriteArrayList<>();
    CountDownLatch firstStarted = new CountDownLatch(1);
    CountDownLatch releaseFirst = new CountDownLatch(1);
    CountDownLatch thirdRan = new CountDownLatch(1);
    try (BackgroundCompaction compactions = new BackgroundCompaction(Executors.newSingleThreadExecutor())) {
      assertThat(compactions.schedule("t", () -> {
        ran.add("first");
        firstStarted.countDown();
        try {
          releaseFirst.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return NOTHING;
      })).isTrue();
      assertThat(firstStarted.await(30, TimeUnit.SECONDS)).isTrue();

      assertThat(compactions.schedule("t", () -> {
        ran.add("second");
        return NOTHING;
      })).as("kept for after the running one").isFalse();
      assertThat(compactions.schedule("t", () -> {
        ran.add("third");
        thirdRan.countDown();
        return NOTHING;
      })).isFalse();
      releaseFirst.countDown();

      assertThat(thirdRan.await(30, TimeUnit.SECONDS)).as("the newest run asked for ran after the first").isTrue();
      CountDownLatch fourthRan = new CountDownLatch(1);
      compactions.schedule("t", () -> { // queued, or kept while "third" ends: made once either way
        ran.add("fourth");
        fourthRan.countDown();
        return NOTHING;
      });
      assertThat(fourthRan.await(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(ran).containsExactly("first", "third", "fourth");
  }
}
