package io.mergesink.ingest.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf.ConfVars;
import org.apache.hadoop.hive.metastore.security.HadoopThriftAuthBridge;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;

/**
 * A real Hive Metastore for tests: Apache Hive's standalone metastore server (4.0.1, from Maven
 * Central) in this JVM on a free port of 127.0.0.1, its database an in-memory Derby, its warehouse a
 * temp dir; started on first use and shared by every test of the JVM (it stops with the JVM). Tests
 * keep apart by using databases of their own. Clients talk to it over Thrift, as to any metastore.
 */
public final class TestHiveMetastore {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static URI uri;

  private TestHiveMetastore() {}

  /** The metastore's Thrift URI, {@code thrift://127.0.0.1:<port>}; starts it on first use. */
  public static synchronized URI uri() {
    if (uri == null) {
      uri = start();
    }
    return uri;
  }

  /** A database name no other test uses: tests keep their tables apart in the shared metastore by databases of their own. */
  public static String newDatabaseName() {
    return "sink_" + UUID.randomUUID().toString().replace("-", "");
  }

  /** A connection to the shared metastore with its own Thrift client, not MergeSink's: for setting up and reading back. */
  public static Connection connect() throws TException {
    TTransport transport = new TSocket(uri().getHost(), uri().getPort());
    transport.open();
    return new Connection(transport, new ThriftHiveMetastore.Client(new TBinaryProtocol(transport)));
  }

  /** An open connection; closing it closes the socket. */
  public record Connection(TTransport transport, ThriftHiveMetastore.Client client) implements AutoCloseable {
    @Override
    public void close() {
      transport.close();
    }
  }

  private static URI start() {
    try {
      Path dir = Files.createTempDirectory("mergesink-hms-");
      // Derby's log goes beside its database, not into the build's working directory
      System.setProperty("derby.stream.error.file", dir.resolve("derby.log").toString());
      Configuration conf = MetastoreConf.newMetastoreConf();
      MetastoreConf.setVar(conf, ConfVars.CONNECT_URL_KEY, "jdbc:derby:memory:" + dir.getFileName() + ";create=true");
      MetastoreConf.setBoolVar(conf, ConfVars.AUTO_CREATE_ALL, true);
      MetastoreConf.setBoolVar(conf, ConfVars.SCHEMA_VERIFICATION, false);
      MetastoreConf.setVar(conf, ConfVars.WAREHOUSE, dir.resolve("warehouse").toString());
      MetastoreConf.setVar(conf, ConfVars.WAREHOUSE_EXTERNAL, dir.resolve("external").toString());
      int port = freePort();
      Thread server = new Thread(() -> {
        try {
          HiveMetaStore.startMetaStore(port, HadoopThriftAuthBridge.getBridge(), conf);
        } catch (Throwable e) {
          throw new IllegalStateException("the test Hive Metastore stopped", e);
        }
      }, "test-hive-metastore");
      server.setDaemon(true);
      server.start();
      URI started = URI.create("thrift://127.0.0.1:" + port);
      awaitAnswer(started, server);
      return started;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the test Hive Metastore", e);
    }
  }

  /** Waits until the metastore answers a Thrift call (its schema is created on start, which takes seconds). */
  private static void awaitAnswer(URI metastore, Thread server) {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    TException last = null;
    while (Instant.now().isBefore(deadline) && server.isAlive()) {
      try (TTransport transport = new TSocket(metastore.getHost(), metastore.getPort())) {
        transport.open();
        new ThriftHiveMetastore.Client(new TBinaryProtocol(transport)).get_all_databases();
        return;
      } catch (TException e) {
        last = e;
      }
      try {
        server.join(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the test Hive Metastore was starting", e);
      }
    }
    throw new IllegalStateException("the test Hive Metastore did not answer at " + metastore + " within " + START_TIMEOUT
        + (server.isAlive() ? "" : " (its thread ended)"), last);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
