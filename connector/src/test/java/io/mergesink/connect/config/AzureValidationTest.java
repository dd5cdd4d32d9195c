package io.mergesink.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.core.testing.TestAzurite;
import io.mergesink.ingest.config.AzureStoreOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/**
 * The connector's validation of Azure table roots against a real Azure Blob service (Azurite):
 * every problem a user can make is reported on the option to change, with a message saying what is
 * wrong.
 */
class AzureValidationTest {
  private static final String CONTAINER = "validation";

  private static Map<String, List<String>> errors(Map<String, String> props) {
    Config config = new MergeSinkConnector().validate(props);
    return config.configValues().stream().filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  /** A valid configuration of tables in the container {@value #CONTAINER} of Azurite's account. */
  private static Map<String, String> props() {
    TestAzurite.createContainer(CONTAINER);
    Map<String, String> props = MergeSinkConfigTest.minimal();
    props.put("table.root", "abfss://" + CONTAINER + "@" + TestAzurite.ACCOUNT + ".dfs.core.windows.net/lake");
    props.put(AzureStoreOptions.ENDPOINT, TestAzurite.azurite().accountEndpoint().toString());
    props.put(AzureStoreOptions.ACCOUNT_KEY, TestAzurite.ACCOUNT_KEY);
    props.put(AzureStoreOptions.RETRIES, "0");
    return props;
  }

  @Test
  void aReachableWritableContainerPassesAndTheProbeIsGone() {
    Map<String, String> props = props();
    assertThat(errors(props)).isEmpty();
    props.put("table.root", "wasbs://" + CONTAINER + "@" + TestAzurite.ACCOUNT + ".blob.core.windows.net/lake");
    assertThat(errors(props)).isEmpty();
    assertThat(StreamSupport.stream(TestAzurite.serviceClient().getBlobContainerClient(CONTAINER).listBlobs().spliterator(), false))
        .as("probe blobs left behind").isEmpty();
  }

  @Test
  void aMissingContainerIsReportedOnTheTableRoot() {
    Map<String, String> props = props();
    props.put("table.root", "abfss://no-such-container@" + TestAzurite.ACCOUNT + ".dfs.core.windows.net/lake");
    assertThat(errors(props)).containsOnlyKeys("table.root");
    assertThat(errors(props).get("table.root")).containsExactly("container no-such-container does not exist in account "
        + TestAzurite.ACCOUNT + " at " + TestAzurite.azurite().accountEndpoint() + " (create it first)");
  }

  @Test
  void aWrongKeyIsReportedOnTheAccountKeyWithoutShowingIt() {
    Map<String, String> props = props();
    String wrong = "bm90LXRoZS1rZXktbm90LXRoZS1rZXktbm90LXRoZS1rZXk=";
    props.put(AzureStoreOptions.ACCOUNT_KEY, wrong);
    assertThat(errors(props)).containsOnlyKeys(AzureStoreOptions.ACCOUNT_KEY);
    assertThat(errors(props).get(AzureStoreOptions.ACCOUNT_KEY)).singleElement().asString()
        .startsWith("cannot write under abfss://" + CONTAINER + "@").contains("HTTP 403").doesNotContain(wrong);
  }

  @Test
  void anUnreachableEndpointIsReportedOnTheEndpoint() throws IOException {
    Map<String, String> props = props();
    String nobody = "http://127.0.0.1:" + closedPort() + "/" + TestAzurite.ACCOUNT;
    props.put(AzureStoreOptions.ENDPOINT, nobody);
    assertThat(errors(props)).containsOnlyKeys(AzureStoreOptions.ENDPOINT);
    assertThat(errors(props).get(AzureStoreOptions.ENDPOINT)).singleElement().asString()
        .startsWith("Azure Blob endpoint " + nobody + " cannot be used: connection refused");
  }

  /** A store that takes every Put Blob, If-None-Match or not: two writers of one version would both commit. */
  @Test
  void aStoreThatIgnoresIfNoneMatchIsReportedOnTheEndpoint() throws IOException {
    HttpServer ignoring = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ignoring.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(exchange.getRequestMethod().equals("DELETE") ? 202 : 201, -1);
      exchange.close();
    });
    ignoring.start();
    try {
      Map<String, String> props = props();
      props.put(AzureStoreOptions.ENDPOINT, "http://127.0.0.1:" + ignoring.getAddress().getPort() + "/" + TestAzurite.ACCOUNT);
      assertThat(errors(props)).containsOnlyKeys(AzureStoreOptions.ENDPOINT);
      assertThat(errors(props).get(AzureStoreOptions.ENDPOINT)).singleElement().asString()
          .contains("ignores If-None-Match: a second conditional Put Blob of abfss://" + CONTAINER + "@");
    } finally {
      ignoring.stop(0);
    }
  }

  @Test
  void anAccountKeyAndASasTokenAreNotBothSet() {
    Map<String, String> props = props();
    props.put(AzureStoreOptions.SAS_TOKEN, "sv=2024-08-04&sig=x");
    assertThat(errors(props).get(AzureStoreOptions.SAS_TOKEN)).containsExactly("set " + AzureStoreOptions.ACCOUNT_KEY
        + " or " + AzureStoreOptions.SAS_TOKEN + ", not both");
  }

  @Test
  void plainHttpSchemesAreRefusedNamingTheirTlsTwin() {
    Map<String, String> props = props();
    props.put("table.root", "wasb://" + CONTAINER + "@" + TestAzurite.ACCOUNT + ".blob.core.windows.net/lake");
    assertThat(errors(props).get("table.root")).singleElement().asString()
        .contains("wasb:// means plain HTTP; use wasbs://");
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
