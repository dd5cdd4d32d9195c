package io.mergesink.connect.reliability;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How many polls a driven task may take to catch up. A poll that only waits for a commit in flight
 * ({@code flush.pipelined}: the offset commit did not wait for it) is not counted: it stands for the
 * consumer's poll blocking until the next offset commit is due, and such polls are bounded by time.
 */
final class PollBudget {
  private static final long WAITING_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(120);
  private static final long WAITING_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final int maxPolls;
  private final long waitingDeadline = System.nanoTime() + WAITING_LIMIT_NANOS;
  private int polls;

  PollBudget(int maxPolls) {
    this.maxPolls = maxPolls;
  }

  /** Whether another poll may follow one that {@code onlyWaited} for a commit in flight. */
  boolean next(boolean onlyWaited) {
    if (onlyWaited && System.nanoTime() < waitingDeadline) {
      LockSupport.parkNanos(WAITING_POLL_NANOS);
      return true;
    }
    return ++polls < maxPolls;
  }
}
