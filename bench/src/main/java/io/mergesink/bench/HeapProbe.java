package io.mergesink.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Used heap after the collector has settled: full GCs until two readings agree. */
final class HeapProbe {
  private static final int MAX_GC_ROUNDS = 20;
  private static final long STABLE_BYTES = 256 * 1024;
  private static final long PAUSE_MILLIS = 50;

  private HeapProbe() {}

  static long settledUsedHeap() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long previous = Long.MAX_VALUE;
    for (int round = 0; round < MAX_GC_ROUNDS; round++) {
      System.gc();
      pause();
      long used = memory.getHeapMemoryUsage().getUsed();
      if (Math.abs(previous - used) < STABLE_BYTES) {
        return used;
      }
      previous = used;
    }
    return previous;
  }

  private static void pause() {
    try {
      Thread.sleep(PAUSE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the heap to settle", e);
    }
  }
}
