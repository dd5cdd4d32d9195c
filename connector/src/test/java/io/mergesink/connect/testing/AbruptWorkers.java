package io.mergesink.connect.testing;

import java.util.Map;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.runtime.distributed.DistributedConfig;

/**
 * Connect workers that do not wait for their tasks when they stop: the nearest a worker in the
 * test JVM comes to being killed with {@code kill -9} (its tasks are abandoned mid-batch, possibly
 * mid-commit, and their partitions move at once), with departed workers' tasks reassigned right away.
 */
public final class AbruptWorkers {
  /** The worker properties of such workers. */
  public static final Map<String, String> WORKER_PROPS = Map.of(
      WorkerConfig.TASK_SHUTDOWN_GRACEFUL_TIMEOUT_MS_CONFIG, "1",
      DistributedConfig.SCHEDULED_REBALANCE_MAX_DELAY_MS_CONFIG, "0");

  private AbruptWorkers() {}
}
