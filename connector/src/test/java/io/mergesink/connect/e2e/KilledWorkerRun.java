package io.mergesink.connect.e2e;

import io.mergesink.connect.testing.AbruptWorkers;
import io.mergesink.localconnect.Await;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The workload of {@link PostgresEndToEndIT} through a sink of {@value #TASKS} tasks on
 * {@value #WORKERS} Connect workers that stop as if killed ({@link AbruptWorkers}): a worker running
 * a sink task is stopped in the middle of the large transaction, its tasks abandoned mid-batch and
 * moved to the other; a worker joins again later, and the tasks are rebalanced over both.
 */
final class KilledWorkerRun {
  static final int WORKERS = 2;
  static final int TASKS = 2;
  /** An offset of {@code line_items} inside the large transaction's events. */
  private static final long INSIDE_LARGE_TRANSACTION = Workload.LARGE_TRANSACTION_ROWS / 2;

  private KilledWorkerRun() {}

  /** PostgreSQL and {@value #WORKERS} workers that stop as if killed; the sink writes under {@code tables}. */
  static EndToEnd start(Path tables) {
    return EndToEnd.start(tables, WORKERS, AbruptWorkers.WORKER_PROPS);
  }

  /**
   * Starts the source on the tables {@code workload} created and the sink with {@code sinkOptions}
   * and {@value #TASKS} tasks, streams the workload with a worker killed inside the large
   * transaction, and waits until the sink holds the end of both topics.
   *
   * @return the {@code line_items} offset the sink had committed when the worker was killed
   */
  static long stream(EndToEnd e2e, Workload workload, Map<String, String> sinkOptions) {
    Map<String, String> sink = new HashMap<>(sinkOptions);
    sink.put("tasks.max", Integer.toString(TASKS));
    e2e.startSourceAndAwaitSnapshot();
    e2e.startSink(sink);

    workload.streamedChanges();
    Await.until("a first sink commit to " + Workload.ACCOUNTS, EndToEnd.CATCH_UP,
        () -> e2e.txnVersion(Workload.ACCOUNTS).isPresent());
    workload.largeTransaction();
    Await.until("the sink inside the large transaction", EndToEnd.CATCH_UP, () -> e2e.txnVersion(Workload.LINE_ITEMS),
        version -> version.orElse(-1L) >= INSIDE_LARGE_TRANSACTION);
    e2e.killSinkWorker();
    long killedAt = e2e.txnVersion(Workload.LINE_ITEMS).orElseThrow();
    e2e.connect().awaitRunning(EndToEnd.SINK, TASKS);

    workload.afterLargeTransaction();
    e2e.connect().cluster().addWorker();
    e2e.connect().awaitRunning(EndToEnd.SINK, TASKS);
    workload.markEnd();

    e2e.awaitEndOfStream();
    e2e.awaitCaughtUp();
    return killedAt;
  }
}
