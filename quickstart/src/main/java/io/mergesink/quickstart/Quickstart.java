package io.mergesink.quickstart;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

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
  /** The Azure SDK's JDK HTTP client, whose per-upload warning {@link #routeLogging} silences. */
  private static final String AZURE_JDK_HTTP_CLIENT = "com.azure.core.http.jdk.httpclient.JdkHttpClient";
  private static final int EXIT_FAILED = 1;
  private static final int EXIT_USAGE = 2;
  /** Exit code after a second Ctrl-C: 128 + SIGINT's number, as shells report it. */
  private static final int EXIT_INTERRUPTED = 130;

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
    handleInterrupts(stop);
    int exitCode = 0;
    try {
      run(options, System.out, stop);
    } catch (RuntimeException e) {
      System.err.println("quickstart failed: " + e.getMessage());
      System.err.println("(details in " + logFile + ")");
      exitCode = EXIT_FAILED;
    }
    // Kafka's client and server threads outlive a return from main; end the JVM explicitly.
    System.exit(exitCode);
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
    // The Azure SDK's JDK HTTP client warns on every upload that the JDK sets Content-Length itself.
    System.setProperty("org.slf4j.simpleLogger.log." + AZURE_JDK_HTTP_CLIENT, "error");
    return logFile;
  }

  /**
   * Ctrl-C (SIGINT) or SIGTERM asks the demo to stop: it ends the workload, waits for the sink,
   * prints the summary and stops everything. A second one exits at once (through the shutdown
   * hooks, which stop the Connect worker). A signal handler rather than a shutdown hook, because
   * Kafka Connect's own shutdown hook would stop the worker while the demo still waits for the sink.
   */
  private static void handleInterrupts(StopSignal stop) {
    SignalHandler handler = signal -> {
      if (stop.requested()) {
        System.out.println("SIG" + signal.getName() + " again: exiting now (the table stays as it is)");
        System.exit(EXIT_INTERRUPTED);
      }
      System.out.println("SIG" + signal.getName() + ": ending the workload, waiting for the sink, then stopping "
          + "(press Ctrl-C again to exit at once)");
      stop.request();
    };
    Signal.handle(new Signal("INT"), handler);
    Signal.handle(new Signal("TERM"), handler);
  }
}
