package io.mergesink.streams;

import io.mergesink.localconnect.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link StreamsApp} instance in a JVM of its own, so that a test can kill it the way a machine
 * dies: {@link Process#destroyForcibly()} (SIGKILL), no shutdown hook, no close, no commit; or
 * freeze it the way a long GC pause or a stalled VM does (SIGSTOP, then SIGCONT).
 */
final class ChildInstance implements AutoCloseable {
  private final Process process;
  private final Path log;

  private ChildInstance(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts an instance with {@code settings}; its output goes to {@code log}. */
  static ChildInstance start(StreamsApp.Settings settings, Path log) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-cp", System.getProperty("java.class.path"), StreamsApp.class.getName()));
    command.addAll(List.of(settings.args()));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new ChildInstance(process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("starting " + command, e);
    }
  }

  /** Waits until the instance reports that it reached RUNNING (it joined the group and got its tasks). */
  void awaitRunning(Duration timeout) {
    Await.until("the child instance logging to " + log + " to be RUNNING", timeout, () -> {
      if (!process.isAlive()) {
        throw new IllegalStateException("the child instance exited with " + process.exitValue() + "; see " + log);
      }
      return output().contains(StreamsApp.RUNNING_LINE);
    });
  }

  /** Kills the JVM without warning and waits until it is gone. */
  void kill() {
    process.destroyForcibly();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the child instance logging to " + log + " did not die after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while killing the child instance", e);
    }
  }

  /** Stops the JVM (SIGSTOP) as a long pause would: no thread runs, no heartbeat, no commit, until {@link #thaw}. */
  void freeze() {
    signal("STOP");
  }

  /** Lets a {@link #freeze frozen} JVM go on (SIGCONT) where it stopped. */
  void thaw() {
    signal("CONT");
  }

  private void signal(String name) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
      if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("sending SIG" + name + " to " + process.pid(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending SIG" + name, e);
    }
  }

  private String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
  }
}
