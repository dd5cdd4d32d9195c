package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.testing.GatedStorage;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connect's offset commit while a pipelined flush ({@code flush.pipelined=true}) is in flight: it
 * reports the offsets that landed and returns, instead of holding the task until the commit lands;
 * the offsets of that commit are reported by an offset commit after it landed.
 */
class OffsetCommitInFlightTest {
  private static final int TIMEOUT_SECONDS = 60;
  private static final int RECORDS = 10;

  @TempDir Path dir;
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final ExecutorService connect = Executors.newSingleThreadExecutor();

  @AfterEach
  void openTheGate() {
    release.countDown();
    GatedStorage.gate(GatedStorage.Gate.OPEN);
    connect.shutdownNow();
  }

  @Test
  void anOffsetCommitWhileACommitIsInFlightReportsWhatLandedWithoutWaitingForIt() throws Exception {
    RecordLog log = new RecordLog(Workloads.TOPIC, 1);
    for (long id = 0; id < RECORDS; id++) {
      log.upsert(id);
    }
    Map<String, String> config = Workloads.localConfig(dir, 1_000);
    config.put("table.root", GatedStorage.root(dir));
    config.put("flush.pipelined", "true");
    Map<TopicPartition, Long> group = new HashMap<>();
    TopicPartition partition = log.topicPartitions().get(0);
    TaskDriver task = new TaskDriver("task-0", config, log, group);
    task.open(List.of(partition));
    assertThat(task.poll(100)).isEqualTo(RECORDS);

    holdTheNextCommit();
    task.preCommit(); // starts the flush of the ten records on the flush thread
    assertThat(reached.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the commit reached its log publish").isTrue();
    connect.submit(task::preCommit).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    assertThat(group).as("nothing landed, nothing reported").doesNotContainKey(partition);

    release.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (group.get(partition) == null && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(10); // Connect's offset commits come on a timer: one more until the commit landed
      task.preCommit();
    }
    assertThat(group).as("the offsets of the landed commit").containsEntry(partition, (long) RECORDS);
    assertThat(KernelTables.readRows(dir.resolve(Workloads.TOPIC).toString())).hasSize(RECORDS);
    task.stop();
  }

  /** Holds the next publish to a table's log until {@link #release}. */
  private void holdTheNextCommit() {
    AtomicBoolean once = new AtomicBoolean(true);
    GatedStorage.gate((path, content) -> {
      if (path.contains("/_delta_log/") && once.compareAndSet(true, false)) {
        reached.countDown();
        try {
          release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
  }
}
