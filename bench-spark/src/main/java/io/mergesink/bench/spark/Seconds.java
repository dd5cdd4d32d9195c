package io.mergesink.bench.spark;

/** Wall-clock helpers over {@link System#nanoTime()}. */
final class Seconds {
  private static final double NANOS_PER_SECOND = 1e9;

  private Seconds() {}

  static double since(long startNanos) {
    return (System.nanoTime() - startNanos) / NANOS_PER_SECOND;
  }

  static double millisSince(long startNanos) {
    return since(startNanos) * 1_000;
  }
}
