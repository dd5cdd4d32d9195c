package io.mergesink.quickstart;

import java.io.PrintStream;
import java.util.Locale;

/** Progress lines on the console, each prefixed with the seconds since the demo started. */
final class Progress {
  private static final double NANOS_PER_SECOND = 1e9;

  private final PrintStream out;
  private final long startNanos = System.nanoTime();

  Progress(PrintStream out) {
    this.out = out;
  }

  void line(String text) {
    out.printf(Locale.ROOT, "[%6.1fs] %s%n", (System.nanoTime() - startNanos) / NANOS_PER_SECOND, text);
    out.flush();
  }

  /** A line without the time prefix (headers, the summary). */
  void plain(String text) {
    out.println(text);
    out.flush();
  }
}
