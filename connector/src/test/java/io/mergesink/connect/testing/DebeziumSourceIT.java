package io.mergesink.connect.testing;

import io.mergesink.localconnect.LocalConnect;
import io.mergesink.localpg.LocalPostgres;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves the harnesses and the source deploy file: Debezium's PostgreSQL connector (pgoutput),
 * configured by {@code config/debezium-postgres-source.json}, runs in the embedded Connect cluster
 * against a throwaway PostgreSQL, and its change events (snapshot reads, then streamed inserts,
 * updates and deletes) arrive in Kafka with the types MergeSink decodes.
 */
class DebeziumSourceIT {
  private static final String CONNECTOR = "pg-source";
  private static final String TOPIC_PREFIX = "pg";
  private static final String TOPIC = TOPIC_PREFIX + ".public.customers";
  private static final Path SOURCE_FILE =
      Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent().resolve("config/debezium-postgres-source.json");

  private static LocalPostgres postgres;
  private static LocalConnect connect;

  @BeforeAll
  static void startServers() {
    assertThat(LocalPostgres.available())
        .as("PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install -y postgresql)")
        .isTrue();
    postgres = LocalPostgres.start(SourceDatabase.NAME);
    connect = LocalConnect.start(1);
  }

  @AfterAll
  static void stopServers() {
    if (connect != null) {
      connect.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void snapshotAndStreamedChangesArriveInTheTopic() {
    postgres.execute(
        "CREATE TABLE customers (id int PRIMARY KEY, balance numeric(12,2), name text, seen timestamptz, "
            + "attrs jsonb, ref uuid, blob bytea, tags int[])",
        "INSERT INTO customers VALUES (1, 10.50, 'ada', '2024-01-02 03:04:05.123456+00', '{\"vip\": true}', "
            + "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x0102', '{1,2,3}')",
        "INSERT INTO customers VALUES (2, -3.25, 'bob', NULL, NULL, NULL, NULL, '{}')");

    connect.startConnector(CONNECTOR, sourceConfig(), 1);
    List<ConsumerRecord<byte[], byte[]>> snapshot = connect.readRecords(TOPIC, 2);
    assertThat(snapshot).extracting(record -> op(record)).containsExactly("r", "r");

    postgres.execute(
        "INSERT INTO customers (id, balance, name) VALUES (3, 99.99, 'cy')",
        "UPDATE customers SET balance = 11.00, name = 'ada l' WHERE id = 1",
        "DELETE FROM customers WHERE id = 2");

    // 2 snapshot reads, create, update, delete and the delete's tombstone
    List<ConsumerRecord<byte[], byte[]>> all = connect.readRecords(TOPIC, 6);
    assertThat(all).hasSize(6);
    assertThat(all).extracting(record -> op(record)).containsExactly("r", "r", "c", "u", "d", null);
    assertThat(connect.recordCount(TOPIC)).isEqualTo(6);

    Struct firstAfter = value(all.get(0)).getStruct("after");
    assertThat(firstAfter.getInt32("id")).isEqualTo(1);
    assertThat(firstAfter.schema().field("balance").schema().name()).isEqualTo(Decimal.LOGICAL_NAME);
    assertThat(firstAfter.get("balance")).isEqualTo(new BigDecimal("10.50"));
    assertThat(firstAfter.schema().field("seen").schema().name()).isEqualTo("io.debezium.time.ZonedTimestamp");
    assertThat(firstAfter.getString("seen")).isEqualTo("2024-01-02T03:04:05.123456Z");
    assertThat(firstAfter.schema().field("attrs").schema().name()).isEqualTo("io.debezium.data.Json");
    assertThat(firstAfter.schema().field("ref").schema().name()).isEqualTo("io.debezium.data.Uuid");
    assertThat(firstAfter.getBytes("blob")).containsExactly(1, 2);
    assertThat(firstAfter.schema().field("tags").schema().type()).isEqualTo(Schema.Type.ARRAY);
    assertThat(firstAfter.getArray("tags")).containsExactly(1, 2, 3);

    Struct update = value(all.get(3));
    assertThat(update.getStruct("after").get("balance")).isEqualTo(new BigDecimal("11.00"));
    SchemaAndValue deleteKey = connect.decodeKey(all.get(4));
    assertThat(((Struct) deleteKey.value()).getInt32("id")).isEqualTo(2);
    assertThat(all.get(5).value()).as("tombstone after the delete").isNull();

    assertThatCode(() -> connect.deleteConnector(CONNECTOR)).doesNotThrowAnyException();
  }

  /**
   * The deploy file {@code config/debezium-postgres-source.json} as users register it, with only
   * the connection options pointed at the test server, so this test also proves that file.
   */
  private static Map<String, String> sourceConfig() {
    Map<String, String> config = new HashMap<>();
    try {
      JsonNode file = new ObjectMapper().readTree(SOURCE_FILE.toFile());
      file.fields().forEachRemaining(field -> config.put(field.getKey(), field.getValue().asText()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + SOURCE_FILE, e);
    }
    assertThat(config).containsEntry("plugin.name", "pgoutput").containsEntry("topic.prefix", TOPIC_PREFIX)
        .containsEntry("decimal.handling.mode", "precise");
    config.putAll(postgres.debeziumConnectionConfig());
    return config;
  }

  private static Struct value(ConsumerRecord<byte[], byte[]> record) {
    return (Struct) connect.decodeValue(record).value();
  }

  private static String op(ConsumerRecord<byte[], byte[]> record) {
    return record.value() == null ? null : value(record).getString("op");
  }
}
