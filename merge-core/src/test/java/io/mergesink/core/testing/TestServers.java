package io.mergesink.core.testing;

import io.mergesink.core.storage.s3.S3Options;
import io.mergesink.locals3.LocalS3;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * Real storage servers for tests, started on first use and shared by every test of the JVM (each
 * starts in a few seconds; sharing keeps a module's run short): S3Proxy ({@link LocalS3}) and an
 * HDFS MiniDFSCluster with one data node. Both stop when the JVM exits. Tests keep apart by using
 * their own bucket or directory.
 */
public final class TestServers {
  private static LocalS3 s3;
  private static MiniDFSCluster hdfs;

  private TestServers() {}

  /** The shared S3 server. */
  public static synchronized LocalS3 s3() {
    if (s3 == null) {
      s3 = LocalS3.start();
      Runtime.getRuntime().addShutdownHook(new Thread(s3::close, "stop-test-s3"));
    }
    return s3;
  }

  /** A new empty bucket on the shared S3 server, and the root URI {@code s3://<bucket>/tables}. */
  public static String s3Root(String bucket) {
    s3().createBucket(bucket);
    return "s3://" + bucket + "/tables";
  }

  /** Options that reach the shared S3 server with its keys, path-style. */
  public static S3Options s3Options() {
    return s3Options(s3());
  }

  /** Options that reach {@code server} with its keys, path-style; few retries so that a test fails fast. */
  public static S3Options s3Options(LocalS3 server) {
    return S3Options.defaults()
        .withRegion(LocalS3.REGION)
        .withEndpoint(URI.create(server.endpoint()), true)
        .withCredentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY)
        .withPartSize(S3Options.MIN_PART_SIZE_BYTES)
        .withRequests(Duration.ofSeconds(30), 2);
  }

  /**
   * Hadoop S3A settings that point a Hadoop or Delta Kernel reader at {@code server} (for reading
   * tables back independently of our S3 storage).
   */
  public static Map<String, String> s3aSettings(LocalS3 server) {
    return Map.of(
        "fs.s3a.endpoint", server.endpoint(),
        "fs.s3a.endpoint.region", LocalS3.REGION,
        "fs.s3a.path.style.access", "true",
        "fs.s3a.access.key", LocalS3.ACCESS_KEY,
        "fs.s3a.secret.key", LocalS3.SECRET_KEY,
        "fs.s3a.connection.ssl.enabled", "false",
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
        "fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
  }

  /** Lets {@link KernelTables} read s3:// and s3a:// tables from the shared S3 server through Hadoop's S3A. */
  public static void kernelReadsS3() {
    KernelTables.configure(s3aSettings(s3()));
  }

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

  /** {@code hdfs://localhost:<port>/<directory>} on the shared cluster. */
  public static String hdfsRoot(String directory) {
    return hdfs().getURI().toString() + "/" + directory;
  }
}
