package io.mergesink.localpg;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL server for the quickstart and the tests: its own cluster in a temp directory, listening on
 * 127.0.0.1 at a free port ({@link ServerPorts}), with {@code wal_level=logical} so Debezium can stream from it.
 *
 * <p>It runs the server binaries of the newest {@code /usr/lib/postgresql/<major>/bin} (Debian's
 * {@code postgresql} package; {@code .ci/run} installs it). PostgreSQL refuses to run as root, so
 * when it runs as root every server command runs as the {@code postgres} OS user through
 * {@code runuser}; otherwise as the current user. The system cluster is never touched.
 *
 * <p>On start it creates the given database owned by the user {@value #USER}
 * (password {@value #PASSWORD}, {@code LOGIN REPLICATION}): the role Debezium connects as. It
 * owns the database and the tables it creates, so Debezium may create a filtered publication.
 *
 * <p>The caller owns the instance and must {@link #close()} it: that stops the server
 * ({@code pg_ctl stop -m immediate}) and deletes its directory. A shutdown hook does the same if the
 * JVM exits first.
 */
public final class LocalPostgres implements AutoCloseable {
  /** Login role with {@code REPLICATION} for Debezium and the caller's own SQL. */
  public static final String USER = "debezium";
  /** Password of {@link #USER}. */
  public static final String PASSWORD = "dbz";
  /** Host the server listens on (loopback only). */
  public static final String HOST = "127.0.0.1";

  private static final Path INSTALL_ROOT = Path.of("/usr/lib/postgresql");
  private static final String OS_USER = "postgres";
  private static final String SUPERUSER = "postgres";
  private static final int MAX_REPLICATION_SLOTS = 10;
  private static final int MAX_WAL_SENDERS = 10;
  private static final int STARTUP_TIMEOUT_SECONDS = 60;
  /** What the server logs when its port is taken (the message of {@code EADDRINUSE}). */
  private static final String PORT_TAKEN = "Address already in use";

  private final Path baseDir;
  private final Path dataDir;
  private final PostgresCommands commands;
  private final String superuserPassword;
  private final String database;
  private final Thread stopOnExit = new Thread(this::close, "stop-local-postgres");
  /** Set once the server listens: another process may take a port before the server binds it. */
  private int port;
  private boolean closed;

  private LocalPostgres(Path baseDir, PostgresCommands commands, String superuserPassword, String database) {
    this.database = database;
    this.baseDir = baseDir;
    this.dataDir = baseDir.resolve("data");
    this.commands = commands;
    this.superuserPassword = superuserPassword;
  }

  /** Whether PostgreSQL server binaries ({@code initdb}, {@code pg_ctl}) are installed. */
  public static boolean available() {
    return binDir().isPresent();
  }

  /**
   * The {@code bin} directory of the newest installed PostgreSQL major version that has
   * {@code initdb}, if any.
   */
  public static Optional<Path> binDir() {
    if (!Files.isDirectory(INSTALL_ROOT)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(INSTALL_ROOT)) {
      return versions.map(version -> version.resolve("bin"))
          .filter(bin -> Files.isExecutable(bin.resolve("initdb")) && Files.isExecutable(bin.resolve("pg_ctl")))
          .max(Comparator.comparing(LocalPostgres::majorVersion));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + INSTALL_ROOT, e);
    }
  }

  /**
   * Creates, configures and starts a new cluster, then creates {@link #USER} and {@link #database()}.
   *
   * @throws IllegalStateException when no server binaries are installed (the message says how to
   *     install them) or a server command fails (the message has its output)
   */
  public static LocalPostgres start(String database) {
    return start(database, () -> ServerPorts.free(HOST));
  }

  /** As {@link #start(String)}, on the ports {@code ports} gives ({@link ServerPorts#start}). */
  static LocalPostgres start(String database, IntSupplier ports) {
    Path bin = binDir().orElseThrow(() -> new IllegalStateException("no PostgreSQL server binaries: expected "
        + INSTALL_ROOT + "/<version>/bin/initdb; install them with 'apt-get install -y postgresql'"));
    Path baseDir = createBaseDir();
    PostgresCommands commands = new PostgresCommands(bin, baseDir, runAsUser());
    commands.handOver(baseDir);
    LocalPostgres postgres = new LocalPostgres(baseDir, commands, UUID.randomUUID().toString(), database);
    try {
      // the server must not outlive the JVM, even one ended by a second Ctrl-C
      Runtime.getRuntime().addShutdownHook(postgres.stopOnExit);
      postgres.init();
      postgres.port = ServerPorts.start(ports, port -> postgres.startOn(port) ? Optional.of(port) : Optional.empty());
      postgres.createUserAndDatabase();
      return postgres;
    } catch (RuntimeException e) {
      postgres.close();
      throw e;
    }
  }

  public String host() {
    return HOST;
  }

  /** The database created on start, owned by {@link #USER}. */
  public String database() {
    return database;
  }

  public int port() {
    return port;
  }

  /** JDBC URL of {@link #database()}. */
  public String jdbcUrl() {
    return jdbcUrl(database);
  }

  /**
   * A new JDBC connection to {@link #database()} as {@link #USER}; the caller closes it.
   *
   * @throws SQLException when the server refuses the connection
   */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
  }

  /**
   * Runs each statement as {@link #USER} in {@link #database()}, autocommitted one by one.
   *
   * @throws IllegalStateException naming the statement that failed
   */
  public void execute(String... statements) {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        try {
          statement.execute(sql);
        } catch (SQLException e) {
          throw new IllegalStateException("SQL failed on " + jdbcUrl() + ": " + sql + ": " + e.getMessage(), e);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot connect to " + jdbcUrl() + " as " + USER + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs {@code sql}, a query of one row with one number, as {@link #USER} and returns the number.
   *
   * @throws IllegalStateException naming the query that failed
   */
  public long queryLong(String sql) {
    try (Connection connection = connect(); Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      if (!result.next()) {
        throw new IllegalStateException("query returned no row on " + jdbcUrl() + ": " + sql);
      }
      return result.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException("query failed on " + jdbcUrl() + ": " + sql + ": " + e.getMessage(), e);
    }
  }

  /**
   * The connection options of Debezium's PostgreSQL connector for this server (hostname, port,
   * user, password, dbname); the caller adds the rest.
   */
  public Map<String, String> debeziumConnectionConfig() {
    Map<String, String> config = new HashMap<>();
    config.put("database.hostname", HOST);
    config.put("database.port", Integer.toString(port));
    config.put("database.user", USER);
    config.put("database.password", PASSWORD);
    config.put("database.dbname", database);
    return config;
  }

  /**
   * Stops the server at once ({@code -m immediate}: a fast shutdown would wait for Debezium's
   * replication connection) and deletes its directory. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (Thread.currentThread() != stopOnExit) {
      try {
        Runtime.getRuntime().removeShutdownHook(stopOnExit);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs, finds the server closed, and returns
      }
    }
    try {
      if (Files.exists(dataDir.resolve("postmaster.pid"))) {
        commands.run("pg_ctl", "stop", "-D", dataDir.toString(), "-m", "immediate", "-w");
      }
    } finally {
      deleteRecursively(baseDir);
    }
  }

  @Override
  public String toString() {
    return "LocalPostgres[" + jdbcUrl() + ", dir=" + baseDir + "]";
  }

  private void init() {
    Path passwordFile = baseDir.resolve("superuser.pw");
    write(passwordFile, superuserPassword + "\n");
    commands.handOver(passwordFile);
    commands.run("initdb", "-D", dataDir.toString(), "-U", SUPERUSER, "--pwfile=" + passwordFile,
        "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync");
    String settings = String.join("\n",
        "",
        "# added by " + LocalPostgres.class.getName(),
        "listen_addresses = '" + HOST + "'",
        "unix_socket_directories = '" + baseDir + "'",
        "wal_level = logical",
        "max_replication_slots = " + MAX_REPLICATION_SLOTS,
        "max_wal_senders = " + MAX_WAL_SENDERS,
        // a throwaway server: durability does not matter, speed does
        "fsync = off",
        "synchronous_commit = off",
        "full_page_writes = off",
        "");
    append(dataDir.resolve("postgresql.conf"), settings);
  }

  /**
   * Starts the server listening on {@code port}.
   *
   * @return false when another process had the port: the server exited at once
   */
  private boolean startOn(int port) {
    Path log = baseDir.resolve("server.log");
    long logged = size(log);
    try {
      commands.run("pg_ctl", "start", "-D", dataDir.toString(), "-l", log.toString(), "-o", "-p " + port,
          "-w", "-t", Integer.toString(STARTUP_TIMEOUT_SECONDS));
      return true;
    } catch (IllegalStateException e) {
      if (readFrom(log, logged).contains(PORT_TAKEN)) {
        return false;
      }
      throw e;
    }
  }

  private void createUserAndDatabase() {
    String url = jdbcUrl("postgres");
    try (Connection connection = DriverManager.getConnection(url, SUPERUSER, superuserPassword);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE ROLE " + USER + " WITH LOGIN REPLICATION PASSWORD '" + PASSWORD + "'");
      statement.execute("CREATE DATABASE " + database + " OWNER " + USER);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create role " + USER + " and database " + database + " on " + url
          + ": " + e.getMessage() + "; server log: " + baseDir.resolve("server.log"), e);
    }
  }

  private String jdbcUrl(String database) {
    return "jdbc:postgresql://" + HOST + ":" + port + "/" + database;
  }

  private static Optional<String> runAsUser() {
    return "root".equals(System.getProperty("user.name")) ? Optional.of(OS_USER) : Optional.empty();
  }

  /**
   * A new directory under {@code java.io.tmpdir}, readable and traversable by everyone, so that
   * the {@code postgres} OS user can reach the data directory inside it.
   */
  private static Path createBaseDir() {
    try {
      Path dir = Files.createTempDirectory("mergesink-pg-",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temp directory for PostgreSQL", e);
    }
  }

  private static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the size of " + file, e);
    }
  }

  /** What {@code file} holds after its first {@code offset} bytes. */
  private static String readFrom(Path file, long offset) {
    try (InputStream in = Files.newInputStream(file)) {
      in.skipNBytes(offset);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static int majorVersion(Path bin) {
    String name = bin.getParent().getFileName().toString();
    try {
      return Integer.parseInt(name);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static void append(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      List<Path> all = paths.sorted(Comparator.reverseOrder()).toList();
      for (Path path : all) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete PostgreSQL directory " + dir, e);
    }
  }
}
