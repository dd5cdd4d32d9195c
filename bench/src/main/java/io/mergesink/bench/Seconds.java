package io.mergesink.bench;

/** Wall-clock helpers over {@link System#nanoTime()}. */
public final class Seconds {
  private static final double NANOS_PER_SECOND = 1e9;

  private Seconds() {}

  public static double since(long startNanos) {
    return (System.nanoTime() - startNanos) / NANOS_PER_SECOND;
  }

  public static double millisSince(long startNanos) {
    return since(startNanos) * 1_000;
  }
}
