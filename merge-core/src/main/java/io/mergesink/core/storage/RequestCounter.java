package io.mergesink.core.storage;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts a storage's requests by kind, in all and per thread (the requests of one operation while
 * others run on other threads); thread-safe, cheap enough for every request.
 */
public final class RequestCounter {
  private final AtomicLongArray counts = new AtomicLongArray(RequestKind.values().length);
  private final ThreadLocal<long[]> ofThread = ThreadLocal.withInitial(() -> new long[RequestKind.values().length]);

  public void count(RequestKind kind) {
    counts.incrementAndGet(kind.ordinal());
    ofThread.get()[kind.ordinal()]++;
  }

  /** The counts so far of the requests made on the calling thread. */
  public RequestCounts readThisThread() {
    return new RequestCounts(ofThread.get().clone());
  }

  /** The counts so far. */
  public RequestCounts read() {
    long[] copy = new long[counts.length()];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = counts.get(i);
    }
    return new RequestCounts(copy);
  }
}
