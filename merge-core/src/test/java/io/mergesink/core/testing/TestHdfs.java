package io.mergesink.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS for tests: a MiniDFSCluster with one data node in the test JVM, started on first use
 * and shared by every test of the JVM; it stops when the JVM exits.
 */
public final class TestHdfs {
  private static MiniDFSCluster hdfs;

  private TestHdfs() {}

  /** The shared HDFS cluster. */
  public static synchronized MiniDFSCluster hdfs() {
    if (hdfs == null) {
      try {
        Path base = Files.createTempDirectory("mergesink-hdfs-");
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
        hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        hdfs.waitActive();
        MiniDFSCluster cluster = hdfs;
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::shutdown, "stop-test-hdfs"));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start a MiniDFSCluster", e);
      }
    }
    return hdfs;
  }

  /**
   * The shared cluster's client configuration as the connector's {@code hadoop.*} options take it
   * (without the prefix), as a deployment hands its {@code core-site.xml} and {@code hdfs-site.xml}.
   */
  public static Map<String, String> hadoopOptions() {
    Map<String, String> options = new HashMap<>();
    hdfs().getConfiguration(0).forEach(entry -> options.put(entry.getKey(), entry.getValue()));
    return options;
  }

  /** {@code hdfs://localhost:<port>/<directory>} on the shared cluster. */
  public static String hdfsRoot(String directory) {
    return hdfs().getURI().toString() + "/" + directory;
  }
}
