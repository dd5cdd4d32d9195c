package io.mergesink.quickstart;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./quickstart.sh}: runs MergeSink end to end on this machine, in one JVM. See
 * {@link QuickstartOptions#USAGE} and {@link Demo}.
 *
 * <p>Logging of Kafka, Connect, Debezium and MergeSink goes to {@value #LOG_FILE} in the table
 * directory, so the console shows only the demo's progress. Ctrl-C ends the workload early; the
 * demo still waits for the sink, prints the summary and stops cleanly, keeping the table.
 */
public final class Quickstart {
  /** Log file name, in the table directory. */
  static final String LOG_FILE = "quickstart.log";
  /** How long Ctrl-C waits for the demo to wind down (catch-up, summary, stopping). */
  private static final Duration SHUTDOWN_GRACE = Demo.CATCH_UP_TIMEOUT.plusMinutes(1);
  private static final int EXIT_FAILED = 1;
  private static final int EXIT_USAGE = 2;

  private Quickstart() {}

  public static void main(String[] args) {
    List<String> arguments = List.of(args);
    if (QuickstartOptions.wantsHelp(arguments)) {
      System.out.println(QuickstartOptions.USAGE);
      return;
    }
    QuickstartOptions options;
    try {
      options = QuickstartOptions.parse(arguments);
    } catch (QuickstartOptions.UsageException e) {
      System.err.println(e.getMessage());
      System.err.println(QuickstartOptions.USAGE);
      System.exit(EXIT_USAGE);
      return;
    }
    Path logFile = routeLogging(options.tableDir());
    System.out.println("MergeSink quickstart (logs: " + logFile + ")");

    StopSignal stop = new StopSignal();
    CountDownLatch finished = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (finished.getCount() > 0) {
        System.out.println("Ctrl-C: finishing the current round, waiting for the sink, then stopping ...");
        stop.request();
        awaitQuietly(finished);
      }
    }, "quickstart-shutdown"));

    int exitCode = 0;
    try {
      run(options, System.out, stop);
    } catch (RuntimeException e) {
      System.err.println("quickstart failed: " + e.getMessage());
      System.err.println("(details in " + logFile + ")");
      exitCode = EXIT_FAILED;
    } finally {
      finished.countDown();
    }
    if (!stop.requested()) {
      // Kafka's client and server threads outlive a return from main; end the JVM explicitly.
      System.exit(exitCode);
    }
  }

  /**
   * Runs the demo with {@code options}, printing progress and the summary to {@code out}.
   *
   * @throws IllegalStateException see {@link Demo#run()}
   */
  static DemoResult run(QuickstartOptions options, PrintStream out, StopSignal stop) {
    return new Demo(options, new Progress(out), stop).run();
  }

  /** Sends slf4j-simple's output to the log file, at INFO; must run before anything logs. */
  private static Path routeLogging(Path tableDir) {
    Path logFile = tableDir.toAbsolutePath().normalize().resolve(LOG_FILE);
    try {
      Files.createDirectories(tableDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the table directory " + tableDir, e);
    }
    System.setProperty("org.slf4j.simpleLogger.logFile", logFile.toString());
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
    System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
    return logFile;
  }

  private static void awaitQuietly(CountDownLatch finished) {
    try {
      finished.await(SHUTDOWN_GRACE.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
