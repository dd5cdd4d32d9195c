package io.mergesink.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.connect.testing.S3SinkOptions;
import io.mergesink.core.testing.TestS3;
import io.mergesink.ingest.config.S3StoreOptions;
import io.mergesink.locals3.LocalS3;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/**
 * The connector's validation of S3 table roots against a real S3 server (S3Proxy): every problem a
 * user can make is reported on the option to change, with a message saying what is wrong.
 */
class S3ValidationTest {
  private static final String BUCKET = "validation";

  private static Map<String, List<String>> errors(Map<String, String> props) {
    Config config = new MergeSinkConnector().validate(props);
    return config.configValues().stream().filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  /** A valid configuration of tables in the test server's bucket {@value #BUCKET}. */
  private static Map<String, String> props() {
    LocalS3 server = TestS3.s3();
    server.createBucket(BUCKET);
    Map<String, String> props = MergeSinkConfigTest.minimal();
    props.put("table.root", "s3://" + BUCKET + "/lake");
    props.putAll(S3SinkOptions.testServer());
    props.put(S3StoreOptions.RETRIES, "0");
    return props;
  }

  @Test
  void aReachableWritableBucketPassesAndTheProbeIsGone() throws IOException {
    Map<String, String> props = props();
    assertThat(errors(props)).isEmpty();
    props.put("table.root", "s3a://" + BUCKET + "/lake");
    assertThat(errors(props)).isEmpty();
    try (var left = Files.walk(TestS3.s3().dataDir().resolve(BUCKET))) {
      assertThat(left.filter(Files::isRegularFile)).as("probe objects left behind").isEmpty();
    }
  }

  @Test
  void aMissingBucketIsReportedOnTheTableRoot() {
    Map<String, String> props = props();
    props.put("table.root", "s3://no-such-bucket/lake");
    assertThat(errors(props)).containsOnlyKeys("table.root");
    assertThat(errors(props).get("table.root")).containsExactly("bucket no-such-bucket does not exist at "
        + TestS3.s3().endpoint() + " (create it first)");
  }

  @Test
  void aWrongSecretIsReportedAsAccessDeniedOnTheAccessKey() {
    Map<String, String> props = props();
    props.put(S3StoreOptions.SECRET_ACCESS_KEY, "not-the-secret");
    assertThat(errors(props)).containsOnlyKeys(S3StoreOptions.ACCESS_KEY_ID);
    assertThat(errors(props).get(S3StoreOptions.ACCESS_KEY_ID)).singleElement().asString()
        .startsWith("access to bucket " + BUCKET + " at " + TestS3.s3().endpoint() + " was denied (HTTP 403)");
  }

  @Test
  void anUnreachableEndpointIsReportedOnTheEndpoint() throws IOException {
    Map<String, String> props = props();
    String nobody = "http://127.0.0.1:" + closedPort();
    props.put(S3StoreOptions.ENDPOINT, nobody);
    assertThat(errors(props)).containsOnlyKeys(S3StoreOptions.ENDPOINT);
    assertThat(errors(props).get(S3StoreOptions.ENDPOINT)).singleElement().asString()
        .startsWith("S3 endpoint " + nobody + " is unreachable: connection refused");
  }

  /**
   * S3Proxy signs for any region, so a wrong region cannot be shown with it; this server answers
   * HeadBucket as AWS S3 does for a bucket of another region (301 with {@code x-amz-bucket-region}).
   */
  @Test
  void aBucketInAnotherRegionIsReportedOnTheRegion() throws IOException {
    HttpServer otherRegion = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    otherRegion.createContext("/", exchange -> {
      exchange.getResponseHeaders().add("x-amz-bucket-region", "eu-west-1");
      exchange.sendResponseHeaders(301, -1);
      exchange.close();
    });
    otherRegion.start();
    try {
      Map<String, String> props = props();
      props.put(S3StoreOptions.ENDPOINT, "http://127.0.0.1:" + otherRegion.getAddress().getPort());
      assertThat(errors(props)).containsOnlyKeys(S3StoreOptions.REGION);
      assertThat(errors(props).get(S3StoreOptions.REGION)).containsExactly("bucket " + BUCKET + " is in region eu-west-1, not "
          + LocalS3.REGION + ": set the region to eu-west-1");
    } finally {
      otherRegion.stop(0);
    }
  }

  @Test
  void keysComeInPairsAndHadoopS3aSettingsNameTheirReplacement() {
    Map<String, String> props = props();
    props.remove(S3StoreOptions.SECRET_ACCESS_KEY);
    assertThat(errors(props).get(S3StoreOptions.SECRET_ACCESS_KEY)).containsExactly(S3StoreOptions.SECRET_ACCESS_KEY + " must be set "
        + "with " + S3StoreOptions.ACCESS_KEY_ID + " (or neither, for the default credential chain)");

    props = props();
    props.put("hadoop.fs.s3a.endpoint", "http://minio:9000");
    assertThat(errors(props).get("table.root")).containsExactly("hadoop.fs.s3a.endpoint is not used: S3 tables are "
        + "written with the AWS SDK, not Hadoop's S3A; set " + S3StoreOptions.ENDPOINT + " instead");
  }

  @Test
  void anEndpointMustBeAnHttpUrl() {
    Map<String, String> props = props();
    props.put(S3StoreOptions.ENDPOINT, "minio:9000");
    assertThat(errors(props).get(S3StoreOptions.ENDPOINT)).singleElement().asString()
        .contains("expected an http:// or https:// URL with a host");
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
