package io.mergesink.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.ingest.config.IngestConfig;
import io.mergesink.ingest.config.IngestOptions;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** What the connector adds to the engine's options (io.mergesink.ingest.config.IngestConfigTest tests those). */
class MergeSinkConfigTest {
  static Map<String, String> minimal() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "orders-sink");
    props.put("topics", "pg.public.orders");
    props.put("table.root", "/tmp/lake");
    return props;
  }

  @Test
  void theConnectorDefinesTheEngineOptions() {
    assertThat(MergeSinkConfig.CONFIG_DEF.names()).isEqualTo(IngestConfig.CONFIG_DEF.names());
  }

  @Test
  void theTxnAppIdDefaultsToTheConnectorName() {
    MergeSinkConfig config = new MergeSinkConfig(minimal());

    assertThat(config.txnAppId()).isEqualTo("orders-sink");
    assertThat(config.connectorName()).isEqualTo("orders-sink");
    assertThat(config.errorTolerance()).isEqualTo(ErrorTolerance.NONE);
    assertThat(config.taskId()).isZero();
  }

  @Test
  void aConfiguredTxnAppIdAndErrorToleranceWin() {
    Map<String, String> props = minimal();
    props.put("txn.app.id", "shared-id");
    props.put("errors.tolerance", "all");
    props.put(MergeSinkConfig.TASK_ID, "3");
    MergeSinkConfig config = new MergeSinkConfig(props);

    assertThat(config.txnAppId()).isEqualTo("shared-id");
    assertThat(config.errorTolerance()).isEqualTo(ErrorTolerance.ALL);
    assertThat(config.taskId()).isEqualTo(3);
  }

  @Test
  void withoutTxnAppIdOrNameTheConfigSaysSo() {
    Map<String, String> props = minimal();
    props.remove("name");

    assertThatThrownBy(() -> new MergeSinkConfig(props).txnAppId()).isInstanceOf(ConfigException.class)
        .hasMessageContaining("txn.app.id").hasMessageContaining("no connector 'name'");
  }

  @Test
  void theEngineGetsTheSameDefaultsAsTheConnector() {
    IngestOptions mapped = new MergeSinkConfig(minimal()).ingestOptions();

    assertThat(mapped).usingRecursiveComparison().isEqualTo(IngestOptions.builder("/tmp/lake", "orders-sink").build());
  }
}
