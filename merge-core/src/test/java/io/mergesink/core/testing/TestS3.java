package io.mergesink.core.testing;

import io.mergesink.core.storage.s3.S3Options;
import io.mergesink.locals3.LocalS3;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * A real S3 server for tests (S3Proxy, {@link LocalS3}), started on first use and shared by every
 * test of the JVM; it stops when the JVM exits. Tests keep apart by using buckets of their own.
 */
public final class TestS3 {
  private static LocalS3 s3;

  private TestS3() {}

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
        .withEndpoint(URI.create(server.endpoint()))
        .withPathStyle(true)
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
}
