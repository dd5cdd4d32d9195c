package io.mergesink.examples.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.localconnect.debezium.CustomerEvents;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example's topology in a {@link TopologyTestDriver}; both tables read back with Delta Kernel. */
class CustomersToDeltaTest {
  private static final String TOPIC = "pg.public.customers";

  @TempDir
  Path root;

  @Test
  void mirrorsTheSourceTableAndKeepsEachCustomersBand() {
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "example-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    Map<String, String> sinkOptions = Map.of("table.root", root.toString());
    try (TopologyTestDriver driver = new TopologyTestDriver(CustomersToDelta.topology(TOPIC, "example", sinkOptions), properties)) {
      TestInputTopic<byte[], byte[]> input = driver.createInputTopic(TOPIC, (topic, bytes) -> bytes, (topic, bytes) -> bytes);
      input.pipeInput(key(1), value(CustomerEvents.upsert("c", 1, 1)));       // balance 1.01
      input.pipeInput(key(200), value(CustomerEvents.upsert("c", 200, 1)));   // 200.01
      input.pipeInput(key(2000), value(CustomerEvents.upsert("c", 2000, 1))); // 2000.01
      input.pipeInput(key(200), value(CustomerEvents.delete(200, 2)));
      input.pipeInput(key(200), (byte[]) null);
      input.pipeInput(key(1), value(CustomerEvents.upsert("u", 1, 2)));
    }
    assertThat(KernelTables.readRows(root.resolve("customers").toString()))
        .containsExactlyInAnyOrder(CustomerEvents.expectedRow(1, 2), CustomerEvents.expectedRow(2000, 1));
    assertThat(KernelTables.readRows(root.resolve("balance_bands").toString()))
        .containsExactlyInAnyOrder(Row.of(1L, "low"), Row.of(2000L, "high"));
    assertThat(KernelTables.txnVersion(root.resolve("balance_bands").toString(), "example-bands:" + TOPIC + ":0")).contains(5L);
  }

  private static byte[] key(long id) {
    JsonConverter keys = new JsonConverter();
    keys.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true"), true);
    return keys.fromConnectData(TOPIC, CustomerEvents.KEY, CustomerEvents.key(id));
  }

  private static byte[] value(Struct envelope) {
    JsonConverter values = new JsonConverter();
    values.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true"), false);
    return values.fromConnectData(TOPIC, CustomerEvents.VALUE, envelope);
  }
}
