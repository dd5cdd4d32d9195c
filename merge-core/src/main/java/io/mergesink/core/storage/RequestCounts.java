package io.mergesink.core.storage;

import java.util.Arrays;
import java.util.StringJoiner;

/**
 * How many requests of each {@link RequestKind} a storage made: an immutable reading of a
 * {@link RequestCounter}. The requests of one operation (a commit, a table open) are the difference
 * of the readings before and after it, {@link #minus}.
 */
public final class RequestCounts {
  /** No requests. */
  public static final RequestCounts ZERO = new RequestCounts(new long[RequestKind.values().length]);

  private final long[] counts;

  RequestCounts(long[] counts) {
    this.counts = counts;
  }

  public long get(RequestKind kind) {
    return counts[kind.ordinal()];
  }

  /** All requests of every kind. */
  public long total() {
    long total = 0;
    for (long count : counts) {
      total += count;
    }
    return total;
  }

  /** The requests of this reading and {@code other}'s together (readings of two storages). */
  public RequestCounts plus(RequestCounts other) {
    long[] sum = new long[counts.length];
    for (int i = 0; i < counts.length; i++) {
      sum[i] = counts[i] + other.counts[i];
    }
    return new RequestCounts(sum);
  }

  /** The requests made since {@code earlier}, a reading of the same counter. */
  public RequestCounts minus(RequestCounts earlier) {
    long[] difference = new long[counts.length];
    for (int i = 0; i < counts.length; i++) {
      difference[i] = counts[i] - earlier.counts[i];
    }
    return new RequestCounts(difference);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RequestCounts that && Arrays.equals(counts, that.counts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(counts);
  }

  /** The non-zero counts, e.g. {@code {get=2, list=1}}. */
  @Override
  public String toString() {
    StringJoiner joined = new StringJoiner(", ", "{", "}");
    for (RequestKind kind : RequestKind.values()) {
      if (get(kind) != 0) {
        joined.add(kind.metricName() + "=" + get(kind));
      }
    }
    return joined.toString();
  }
}
