package io.mergesink.locals3;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * A throwaway S3 server for the quickstart, the tests and the benchmarks: S3Proxy
 * ({@code org.gaul:s3proxy}, the {@code jar-with-dependencies} the build resolves) started with
 * {@code java -jar} as a child process, listening on 127.0.0.1 at a free port ({@link ServerPorts}), storing objects as
 * plain files under a directory ({@code jclouds.provider=filesystem-nio2}: a bucket is a directory,
 * an object the file {@code <dir>/<bucket>/<key>}). It checks SigV4 signatures against
 * {@link #ACCESS_KEY} / {@link #SECRET_KEY}, answers {@code If-None-Match: *} on an existing key with
 * 412 and lets exactly one of several concurrent conditional writers of a key win.
 *
 * <p>It runs in its own JVM, never on the caller's class path: its Jetty, Guava and jclouds would
 * clash with Kafka Connect's.
 *
 * <p>The caller owns the instance and must {@link #close()} it: that stops the process and deletes
 * the server's own directory (its configuration, log and, for {@link #start()}, the objects). A shutdown hook stops the process if the JVM exits first.
 */
public final class LocalS3 implements AutoCloseable {
  /** The access key id clients sign with. */
  public static final String ACCESS_KEY = "mergesink";
  /** The secret access key clients sign with. */
  public static final String SECRET_KEY = "mergesink-local-secret";
  /** The region clients sign for (S3Proxy accepts any). */
  public static final String REGION = "us-east-1";
  /** Host the server listens on (loopback only). */
  public static final String HOST = "127.0.0.1";
  /** Overrides where the S3Proxy jar is (a path), e.g. for a quickstart run outside the build. */
  public static final String JAR_PROPERTY = "mergesink.s3proxy.jar";

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final String LOG_FILE = "s3proxy.log";

  private final Path baseDir;
  private final Path dataDir;
  private final int port;
  private final Process process;
  private final Thread stopOnExit;
  private boolean closed;

  private LocalS3(Path baseDir, Path dataDir, int port, Process process) {
    this.baseDir = baseDir;
    this.dataDir = dataDir;
    this.port = port;
    this.process = process;
    this.stopOnExit = new Thread(process::destroyForcibly, "stop-local-s3");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  /** Starts a server storing its objects in a new temporary directory, deleted by {@link #close()}. */
  public static LocalS3 start() {
    try {
      return start(Files.createTempDirectory("mergesink-s3-"), true, () -> ServerPorts.free(HOST));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for the local S3 server", e);
    }
  }

  /**
   * Starts a server storing its objects under {@code dataDir} (created when missing, kept by
   * {@link #close()}), so a later server on the same directory sees the same buckets and objects.
   */
  public static LocalS3 start(Path dataDir) {
    return start(dataDir, false, () -> ServerPorts.free(HOST));
  }

  /** As {@link #start()}, on the ports {@code ports} gives ({@link ServerPorts#start}). */
  static LocalS3 start(IntSupplier ports) {
    try {
      return start(Files.createTempDirectory("mergesink-s3-"), true, ports);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for the local S3 server", e);
    }
  }

  private static LocalS3 start(Path dir, boolean ownsDir, IntSupplier ports) {
    Path jar = serverJar();
    Path base;
    Path data;
    try {
      base = ownsDir ? dir : Files.createTempDirectory("mergesink-s3-");
      data = ownsDir ? dir.resolve("data") : dir;
      Files.createDirectories(data);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the directories of the local S3 server under " + dir, e);
    }
    return ServerPorts.start(ports, port -> launch(jar, base, data, port));
  }

  /** S3Proxy on {@code port}; empty when another process took the port first. */
  private static Optional<LocalS3> launch(Path jar, Path base, Path data, int port) {
    try {
      Path properties = base.resolve("s3proxy.conf");
      Files.writeString(properties, String.join("\n",
          "s3proxy.authorization=aws-v2-or-v4",
          "s3proxy.identity=" + ACCESS_KEY,
          "s3proxy.credential=" + SECRET_KEY,
          "s3proxy.endpoint=http://" + HOST + ":" + port,
          "jclouds.provider=filesystem-nio2",
          "jclouds.identity=" + ACCESS_KEY,
          "jclouds.credential=" + SECRET_KEY,
          "jclouds.filesystem.basedir=" + data.toAbsolutePath(),
          ""), StandardCharsets.UTF_8);
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      Process process = new ProcessBuilder(List.of(java.toString(), "-Xmx256m", "-jar", jar.toString(),
          "--properties", properties.toString()))
          .redirectErrorStream(true)
          .redirectOutput(base.resolve(LOG_FILE).toFile())
          .start();
      LocalS3 server = new LocalS3(base, data, port, process);
      if (!server.awaitListening()) {
        server.stopProcess();
        return Optional.empty();
      }
      return Optional.of(server);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start S3Proxy (" + jar + ")", e);
    }
  }

  /** The endpoint URL clients use: {@code http://127.0.0.1:<port>} (path-style addressing). */
  public String endpoint() {
    return "http://" + HOST + ":" + port;
  }

  public int port() {
    return port;
  }

  /** The directory holding the buckets (one directory each) and their objects (plain files). */
  public Path dataDir() {
    return dataDir;
  }

  /** Creates {@code bucket} (a directory under {@link #dataDir()}) when it does not exist. */
  public void createBucket(String bucket) {
    try {
      Files.createDirectories(dataDir.resolve(bucket));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create bucket " + bucket + " under " + dataDir, e);
    }
  }

  /** The server's output so far, for a test's failure message. */
  public String log() {
    try {
      return Files.readString(baseDir.resolve(LOG_FILE), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Stops the server and deletes the directory it made itself. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    stopProcess();
    deleteRecursively(baseDir);
  }

  private void stopProcess() {
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
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
  }

  /**
   * Waits until the server answers.
   *
   * @return false when it exited because another process had its port
   */
  private boolean awaitListening() {
    Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        if (log().contains("Failed to bind to /" + HOST + ":" + port)) { // Jetty's message, as S3Proxy logs it
          return false;
        }
        throw new IllegalStateException("S3Proxy exited with code " + process.exitValue() + " while starting:\n" + log());
      }
      if (answersHttp()) {
        return true;
      }
      try {
        process.waitFor(100, java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        close();
        throw new IllegalStateException("interrupted while S3Proxy was starting", e);
      }
    }
    close();
    throw new IllegalStateException("S3Proxy did not answer on " + endpoint() + " within " + STARTUP_TIMEOUT + ":\n" + log());
  }

  /** Whether the server answers an HTTP request (any status: an anonymous request gets 403). */
  private boolean answersHttp() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(HOST, port), 1_000);
      socket.setSoTimeout(2_000);
      socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + HOST + ":" + port + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      byte[] head = socket.getInputStream().readNBytes(8);
      return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/");
    } catch (IOException e) {
      return false;
    }
  }

  /** The S3Proxy jar: {@value #JAR_PROPERTY} when set, else where the build put it in the local Maven repository. */
  static Path serverJar() {
    String override = System.getProperty(JAR_PROPERTY);
    if (override != null && !override.isBlank()) {
      return existing(Path.of(override), "system property " + JAR_PROPERTY);
    }
    Properties built = new Properties();
    try (InputStream in = LocalS3.class.getResourceAsStream("s3proxy.properties")) {
      if (in == null) {
        throw new IllegalStateException("missing resource s3proxy.properties next to " + LocalS3.class);
      }
      built.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read s3proxy.properties", e);
    }
    return existing(Path.of(built.getProperty("jar")), "the local Maven repository (build local-s3 to resolve it)");
  }

  private static Path existing(Path jar, String source) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("no S3Proxy jar at " + jar + " (from " + source + ")");
    }
    return jar;
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a leftover temp directory is harmless
    }
  }
}
