package io.mergesink.localazurite;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A throwaway Azure Blob service for the quickstart and the tests: Azurite's blob service (the npm
 * package {@code azurite}, {@value #VERSION}, run by Node.js) as a child process on a free port of
 * 127.0.0.1, serving the development account {@value #ACCOUNT} with its data under a directory.
 *
 * <p>The {@code azurite-blob} command is the system property {@value #COMMAND_PROPERTY}, else the
 * environment variable {@value #COMMAND_VARIABLE}, else the one {@code .ci/run} and
 * {@code quickstart.sh} install into {@link #CACHE_DIR_NAME} under the user's cache directory, else
 * {@code azurite-blob} on the PATH ({@code npm install -g azurite}); see {@link #command()}.
 *
 * <p>The caller owns the instance and must {@link #close()} it: that stops the process and, for
 * {@link #start(String)}, deletes the data. A shutdown hook stops the process if the JVM exits first.
 */
public final class LocalAzurite implements AutoCloseable {
  /** The Azurite version {@code .ci/run} and {@code quickstart.sh} install. */
  public static final String VERSION = "3.37.0";
  /** Azurite's well-known development account and key (public, in Azure's documentation). */
  public static final String ACCOUNT = "devstoreaccount1";
  public static final String ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  public static final String COMMAND_PROPERTY = "mergesink.azurite.command";
  public static final String COMMAND_VARIABLE = "AZURITE_BLOB";
  /** The directory, under {@code $XDG_CACHE_HOME} or {@code ~/.cache}, that Azurite is installed into with npm. */
  public static final String CACHE_DIR_NAME = "mergesink-azurite-" + VERSION;
  private static final String COMMAND = "azurite-blob";
  private static final Pattern LISTENING = Pattern.compile("successfully listens on (http://\\S+)");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private final Process process;
  private final URI serviceUrl;
  private final Path dataDir;
  private final boolean ownsDataDir;
  private final Thread stopOnExit;
  private boolean closed;

  private LocalAzurite(Process process, URI serviceUrl, Path dataDir, boolean ownsDataDir) {
    this.process = process;
    this.serviceUrl = serviceUrl;
    this.dataDir = dataDir;
    this.ownsDataDir = ownsDataDir;
    this.stopOnExit = new Thread(process::destroyForcibly, "stop-local-azurite");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /**
   * The {@code azurite-blob} command: {@value #COMMAND_PROPERTY}, {@value #COMMAND_VARIABLE}, the
   * cache directory's install, or the PATH's; empty when none is there.
   */
  public static Optional<String> command() {
    Optional<String> configured = Optional.ofNullable(System.getProperty(COMMAND_PROPERTY))
        .or(() -> Optional.ofNullable(System.getenv(COMMAND_VARIABLE))).filter(value -> !value.isBlank());
    if (configured.isPresent()) {
      return configured;
    }
    Path cached = cacheDir().resolve("node_modules").resolve(".bin").resolve(COMMAND);
    if (Files.isExecutable(cached)) {
      return Optional.of(cached.toString());
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, COMMAND);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate.toString());
      }
    }
    return Optional.empty();
  }

  /** Where {@code .ci/run} and {@code quickstart.sh} install Azurite: {@value #CACHE_DIR_NAME} under the user's cache directory. */
  public static Path cacheDir() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return cache.resolve(CACHE_DIR_NAME);
  }

  /** How to get Azurite, for a message when {@link #command()} finds none. */
  public static String howToInstall() {
    return "Azurite (" + COMMAND + ") not found: install Node.js and npm (e.g. apt-get install nodejs npm), then"
        + " npm install --prefix " + cacheDir() + " azurite@" + VERSION + "; or set -D" + COMMAND_PROPERTY + " or "
        + COMMAND_VARIABLE + " to an azurite-blob command";
  }

  /** Starts Azurite ({@code command}) with its data in a new temporary directory, deleted by {@link #close()}. */
  public static LocalAzurite start(String command) {
    try {
      return start(command, Files.createTempDirectory("mergesink-azurite-"), true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a data directory for Azurite", e);
    }
  }

  /**
   * Starts Azurite ({@code command}) with its data under {@code dataDir} (created when missing, kept
   * by {@link #close()}), so a later server on the same directory sees the same containers and blobs.
   */
  public static LocalAzurite start(String command, Path dataDir) {
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create Azurite's data directory " + dataDir, e);
    }
    return start(command, dataDir, false);
  }

  /** Starts Azurite on a port it picks and waits for the line saying where it listens. */
  private static LocalAzurite start(String command, Path dataDir, boolean ownsDataDir) {
    Process process = null;
    try {
      process = new ProcessBuilder(command, "--blobHost", "127.0.0.1", "--blobPort", "0", "--location",
          dataDir.toString(), "--skipApiVersionCheck", "--loose", "--silent")
          .redirectErrorStream(true).start();
      BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      List<String> lines = new ArrayList<>();
      Process started = process;
      Thread watchdog = daemon("azurite-start-watchdog", () -> {
        try {
          if (!started.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            started.destroy();
          }
        } catch (InterruptedException e) {
          // Azurite is up: the watchdog is no longer needed
        }
      });
      String line;
      while ((line = output.readLine()) != null) {
        lines.add(line);
        Matcher listening = LISTENING.matcher(line);
        if (listening.find()) {
          watchdog.interrupt();
          daemon("azurite-output", () -> drain(output));
          return new LocalAzurite(process, URI.create(listening.group(1)), dataDir, ownsDataDir);
        }
      }
      throw new IllegalStateException("Azurite (" + command + ") exited or did not start within " + START_TIMEOUT
          + ": " + String.join(" | ", lines));
    } catch (IOException e) {
      if (process != null) {
        process.destroyForcibly();
      }
      throw new UncheckedIOException("cannot start Azurite (" + command + ")", e);
    }
  }

  /** The Blob service URL, {@code http://127.0.0.1:<port>}. */
  public URI serviceUrl() {
    return serviceUrl;
  }

  /** The Blob service URL of the development account, {@code http://127.0.0.1:<port>/devstoreaccount1}: the {@code azure.endpoint}. */
  public URI accountEndpoint() {
    return URI.create(serviceUrl + "/" + ACCOUNT);
  }

  public Path dataDir() {
    return dataDir;
  }

  /** Stops the server, and deletes its data if it made the directory itself. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs anyway
    }
    if (ownsDataDir) {
      try (Stream<Path> files = Files.walk(dataDir)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      } catch (IOException e) {
        // a temp dir; the system cleans it
      }
    }
  }

  private static Thread daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Reads Azurite's output to the end, so that a full pipe never blocks it. */
  private static void drain(BufferedReader output) {
    try {
      while (output.readLine() != null) {
        // nothing to keep: --silent leaves only errors, which surface in the clients' requests
      }
    } catch (IOException e) {
      // Azurite stopped
    }
  }
}
