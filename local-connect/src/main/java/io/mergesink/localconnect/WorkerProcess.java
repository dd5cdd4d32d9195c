package io.mergesink.localconnect;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * One Kafka Connect worker in distributed mode, run as a child process ({@code ConnectDistributed}
 * with a worker properties file, as a Kafka distribution's {@code connect-distributed.sh} starts it)
 * from the class path and with the JVM options (its heap) the caller gives. Its output goes to a log
 * file next to its properties; its JVM is reachable over JMX on the loopback address, for the tasks'
 * metrics and the worker's heap. The caller owns the process and must {@link #close()} it.
 */
public final class WorkerProcess implements AutoCloseable {
  private static final String MAIN_CLASS = "org.apache.kafka.connect.cli.ConnectDistributed";
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  /** Where ephemeral ports start when the kernel does not say (IANA's range; Linux defaults to 32768). */
  private static final int IANA_EPHEMERAL_START = 49_152;
  private static final Random RANDOM = new Random();

  private final Path propertiesFile;
  private final Path log;
  private final List<Path> classpath;
  private final List<String> jvmOptions;
  private final int restPort;
  private final int jmxPort;
  private Process process;

  /**
   * @param properties the worker's options; {@code listeners} and the REST ports are set here
   */
  private WorkerProcess(Path dir, String name, List<Path> classpath, List<String> jvmOptions,
      Map<String, String> properties) {
    this.classpath = List.copyOf(classpath);
    this.jvmOptions = List.copyOf(jvmOptions);
    this.restPort = freePort();
    this.jmxPort = freePort();
    this.propertiesFile = dir.resolve(name + ".properties");
    this.log = dir.resolve(name + ".log");
    Properties all = new Properties();
    all.putAll(properties);
    all.put("listeners", "http://127.0.0.1:" + restPort);
    all.put("rest.advertised.host.name", "127.0.0.1");
    all.put("rest.advertised.port", Integer.toString(restPort));
    try {
      Files.createDirectories(dir);
      try (var out = Files.newBufferedWriter(propertiesFile)) {
        all.store(out, "Kafka Connect worker " + name);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + propertiesFile, e);
    }
  }

  /**
   * Starts worker {@code name}, its files under {@code dir}, from {@code classpath} (Kafka Connect's
   * runtime and the plugins it loads from the class path) with {@code jvmOptions} (e.g. {@code -Xmx512m}).
   */
  public static WorkerProcess start(Path dir, String name, List<Path> classpath, List<String> jvmOptions,
      Map<String, String> properties) {
    WorkerProcess worker = new WorkerProcess(dir, name, classpath, jvmOptions, properties);
    worker.start();
    return worker;
  }

  /**
   * Properties of a distributed worker of group {@code groupId} (its topics named after it) on the
   * brokers at {@code bootstrapServers}: JSON with schemas for keys and values, sink tasks' preCommit
   * every second, plugins found through their ServiceLoader manifests (as
   * {@code config/connect-distributed.properties}: the default, {@code hybrid_warn}, also scans
   * every jar by reflection, 30-50 s per worker start on a 2-core machine), a lost worker's tasks
   * moved after 10 s.
   */
  public static Map<String, String> distributedProperties(String bootstrapServers, String groupId) {
    Map<String, String> props = new HashMap<>();
    props.put("bootstrap.servers", bootstrapServers);
    props.put("group.id", groupId);
    props.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("key.converter.schemas.enable", "true");
    props.put("value.converter.schemas.enable", "true");
    props.put("config.storage.topic", groupId + "-configs");
    props.put("offset.storage.topic", groupId + "-offsets");
    props.put("status.storage.topic", groupId + "-status");
    props.put("config.storage.replication.factor", "1");
    props.put("offset.storage.replication.factor", "1");
    props.put("status.storage.replication.factor", "1");
    props.put("offset.storage.partitions", "1");
    props.put("status.storage.partitions", "1");
    // How often a sink task's preCommit runs, and how long the leader waits for a lost worker (default 5 minutes).
    props.put("offset.flush.interval.ms", "1000");
    props.put("scheduled.rebalance.max.delay.ms", "10000");
    // A killed worker's sink consumers hold their partitions until their session times out (default 45 s).
    props.put("consumer.session.timeout.ms", "10000");
    props.put("consumer.heartbeat.interval.ms", "3000");
    props.put("plugin.discovery", "service_load");
    return props;
  }

  /** The class path of this JVM, for a worker that runs what the test runs (its plugins included). */
  public static List<Path> currentClasspath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.isEmpty()).map(Path::of).toList();
  }

  /** Starts the process (again, after {@link #kill()}), with the same ports and properties. */
  public void start() {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("worker " + propertiesFile + " is running already");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    // Remote JMX on the loopback address only, so the test can read the task's metrics and the heap.
    command.add("-Dcom.sun.management.jmxremote.port=" + jmxPort);
    command.add("-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort);
    command.add("-Dcom.sun.management.jmxremote.host=127.0.0.1");
    command.add("-Djava.rmi.server.hostname=127.0.0.1");
    command.add("-Dcom.sun.management.jmxremote.authenticate=false");
    command.add("-Dcom.sun.management.jmxremote.ssl=false");
    command.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
    command.add("-cp");
    command.add(classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
    command.add(MAIN_CLASS);
    command.add(propertiesFile.toString());
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      // A test JVM that ends without close() (a fork timeout) must not leave workers behind on the machine.
      Process started = process;
      Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly, "kill-" + propertiesFile.getFileName()));
    } catch (IOException e) {
      throw new UncheckedIOException("starting Kafka Connect worker " + propertiesFile + " (" + command.get(0) + ")", e);
    }
  }

  /** Kills the process at once (SIGKILL): no task is stopped, nothing is flushed or committed. */
  public void kill() {
    process.destroyForcibly();
    waitForExit();
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** The operating system's id of the running process (for {@code jcmd}). */
  public long pid() {
    return process.pid();
  }

  public String restUrl() {
    return "http://127.0.0.1:" + restPort;
  }

  /** The id the worker reports in connector status ({@code host:port} of its REST listener). */
  public String workerId() {
    return "127.0.0.1:" + restPort;
  }

  public String jmxUrl() {
    return "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi";
  }

  public Path log() {
    return log;
  }

  /** The last {@code lines} lines of the worker's log, for failure messages. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log at " + log + ": " + e.getMessage() + ")";
    }
  }

  /**
   * Calls {@code read} with a JMX connection to the worker's JVM.
   *
   * @throws IllegalStateException when the worker's JMX agent cannot be reached or the call fails
   */
  public <T> T overJmx(Function<MBeanServerConnection, T> read) {
    try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(jmxUrl()))) {
      return read.apply(connector.getMBeanServerConnection());
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("JMX of worker " + propertiesFile.getFileName() + " at " + jmxUrl() + " failed: " + e, e);
    }
  }

  /** The worker JVM's heap as it is (garbage included). */
  public MemoryUsage heap() {
    return overJmx(server -> memory(server).getHeapMemoryUsage());
  }

  /** The worker JVM's heap right after a full collection it is asked for ({@code System.gc()}): its live objects. */
  public MemoryUsage heapAfterGc() {
    return overJmx(server -> {
      MemoryMXBean memory = memory(server);
      memory.gc();
      return memory.getHeapMemoryUsage();
    });
  }

  /**
   * The first {@code lines} lines of {@code jcmd <pid> GC.class_histogram} (a full collection, then
   * instances and bytes per class, largest first): what the worker's live heap is made of.
   */
  public List<String> classHistogram(int lines) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process histogram = new ProcessBuilder(jcmd.toString(), Long.toString(pid()), "GC.class_histogram")
          .redirectErrorStream(true).start();
      List<String> output;
      try (var reader = histogram.inputReader()) {
        output = reader.lines().limit(lines).toList();
        reader.transferTo(Writer.nullWriter());
      }
      if (!histogram.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        histogram.destroyForcibly();
        throw new IllegalStateException(jcmd + " GC.class_histogram of " + pid() + " did not end");
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException("running " + jcmd + " GC.class_histogram", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while taking the class histogram of " + pid(), e);
    }
  }

  /** Ends the worker (SIGKILL): a test is done with it, and nothing it holds is needed afterwards. */
  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      kill();
    }
  }

  private static MemoryMXBean memory(MBeanServerConnection server) {
    try {
      return ManagementFactory.newPlatformMXBeanProxy(server, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void waitForExit() {
    try {
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new IllegalStateException("worker process " + process.pid() + " did not exit after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for worker process " + process.pid(), e);
    }
  }

  /**
   * A free port below the kernel's ephemeral range: a port from that range, even free when
   * chosen, may be taken by any process's next outgoing connection or port-0 listener (brokers of
   * parallel builds) before the worker binds it, or binds it again after {@link #kill()}.
   */
  private static int freePort() {
    int below = ephemeralRangeStart();
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = 10_000 + RANDOM.nextInt(below - 10_000);
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return socket.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IllegalStateException("no free port between 10000 and " + below + " after 100 attempts");
  }

  private static int ephemeralRangeStart() {
    try {
      // Files.readString trusts the size procfs reports, and reads a single byte of this file
      return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return IANA_EPHEMERAL_START;
    }
  }
}
