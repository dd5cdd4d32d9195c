package io.mergesink.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.connect.config.MergeSinkConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.sink.SinkConnector;
import org.junit.jupiter.api.Test;

class MergeSinkConnectorTest {
  private static final Map<String, String> PROPS =
      Map.of("name", "s", "topics", "t", "table.root", "/tmp/lake", "write.mode", "upsert");

  @Test
  void versionComesFromTheBuild() {
    assertThat(new MergeSinkConnector().version()).matches("\\d+\\.\\d+\\.\\d+.*").doesNotContain("${");
  }

  @Test
  void everyTaskGetsTheConnectorConfigurationAndItsNumber() {
    MergeSinkConnector connector = new MergeSinkConnector();
    connector.start(PROPS);

    List<Map<String, String>> configs = connector.taskConfigs(3);
    assertThat(configs).hasSize(3);
    for (int task = 0; task < 3; task++) {
      Map<String, String> expected = new HashMap<>(PROPS);
      expected.put(MergeSinkConfig.TASK_ID, Integer.toString(task));
      assertThat(configs.get(task)).isEqualTo(expected);
      assertThat(new MergeSinkConfig(configs.get(task)).taskId()).isEqualTo(task);
    }
    assertThat(connector.config()).isSameAs(MergeSinkConfig.CONFIG_DEF);
    connector.stop();
  }

  @Test
  void startRejectsAnInvalidConfiguration() {
    assertThatThrownBy(() -> new MergeSinkConnector().start(Map.of("topics", "t", "table.root", "/x", "write.mode", "x")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("write.mode");
  }

  @Test
  void isDiscoverableAsAServiceForPluginDiscovery() {
    assertThat(ServiceLoader.load(SinkConnector.class).stream().map(ServiceLoader.Provider::type))
        .contains(MergeSinkConnector.class);
  }

  @Test
  void taskClassIsLookedUpByName() {
    try {
      assertThat(new MergeSinkConnector().taskClass().getName()).isEqualTo("io.mergesink.connect.MergeSinkTask");
    } catch (IllegalStateException e) {
      assertThat(e).hasMessageContaining("io.mergesink.connect.MergeSinkTask is missing from the plugin");
    }
  }
}
