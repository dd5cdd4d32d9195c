package io.mergesink.localconnect.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.junit.jupiter.api.Test;

class DebeziumTableTest {
  private static final DebeziumTable ORDERS = DebeziumTable.builder("shop", "public", "orders").database("inventory")
      .column("id", Schema.INT32_SCHEMA)
      .column("status", Schema.OPTIONAL_STRING_SCHEMA)
      .key("id")
      .build();

  @Test
  void schemasAreNamedAsThePostgresConnectorNamesThem() {
    assertThat(ORDERS.topic()).isEqualTo("shop.public.orders");
    assertThat(ORDERS.keySchema().name()).isEqualTo("shop.public.orders.Key");
    assertThat(ORDERS.rowSchema().name()).isEqualTo("shop.public.orders.Value");
    assertThat(ORDERS.envelopeSchema().name()).isEqualTo("shop.public.orders.Envelope");
    assertThat(ORDERS.sourceSchema().name()).isEqualTo("io.debezium.connector.postgresql.Source");
    assertThat(ORDERS.envelopeSchema().fields()).extracting(Field::name).containsExactly("before", "after", "source", "op", "ts_ms");
    assertThat(ORDERS.envelopeSchema().field("before").schema()).isSameAs(ORDERS.rowSchema());
    assertThat(ORDERS.rowSchema().isOptional()).as("before and after may be null").isTrue();
  }

  @Test
  void theKeyHasTheKeyColumnsWithTheirSchemas() {
    assertThat(ORDERS.keySchema().fields()).extracting(Field::name).containsExactly("id");
    assertThat(ORDERS.keySchema().field("id").schema()).isEqualTo(Schema.INT32_SCHEMA);
    assertThat(ORDERS.key(7).get("id")).isEqualTo(7);
    assertThatThrownBy(() -> ORDERS.key(7, 8)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DebeziumTable.builder("shop", "public", "t").database("shop").column("id", Schema.INT32_SCHEMA).key("code").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("code");
  }

  @Test
  void eachChangeHasItsOperationCodeAndRows() {
    Struct row = ORDERS.newRow().put("id", 1).put("status", "new");
    Struct changed = ORDERS.newRow().put("id", 1).put("status", "paid");

    assertEvent(ORDERS.create(row, 10), "c", null, row, 10);
    assertEvent(ORDERS.read(row, 11), "r", null, row, 11);
    assertEvent(ORDERS.update(row, changed, 12), "u", row, changed, 12);
    assertEvent(ORDERS.delete(changed, 13), "d", changed, null, 13);
    assertEvent(ORDERS.truncate(14), "t", null, null, 14);
  }

  @Test
  void theSourceNamesTheTableAndWhenTheChangeWasCommitted() {
    Struct source = ORDERS.create(ORDERS.newRow().put("id", 1), 1_000).getStruct("source");

    assertThat(source.schema().fields()).extracting(Field::name)
        .containsExactly("version", "connector", "name", "ts_ms", "db", "schema", "table");
    assertThat(source.getString("version")).isEqualTo(DebeziumTable.DEBEZIUM_VERSION);
    assertThat(source.getString("connector")).isEqualTo("postgresql");
    assertThat(source.getString("name")).as("the topic prefix").isEqualTo("shop");
    assertThat(source.getString("db")).isEqualTo("inventory");
    assertThat(source.getString("schema")).isEqualTo("public");
    assertThat(source.getString("table")).isEqualTo("orders");
    assertThat(source.getInt64("ts_ms")).isEqualTo(1_000L);
  }

  @Test
  void sourceFieldsKeepTheConnectorsOrderWhateverOrderTheyAreChosenIn() {
    DebeziumTable table = DebeziumTable.builder("shop", "public", "orders").column("id", Schema.INT32_SCHEMA).key("id")
        .source(SourceField.LSN, SourceField.SNAPSHOT, SourceField.VERSION).build();

    assertThat(table.sourceSchema().fields()).extracting(Field::name).containsExactly("version", "snapshot", "lsn");
    assertThat(table.source(5).put("lsn", 42L).getInt64("lsn")).isEqualTo(42L);
  }

  @Test
  void aSourceWithDbNeedsADatabase() {
    assertThatThrownBy(() -> DebeziumTable.builder("shop", "public", "t").column("id", Schema.INT32_SCHEMA).key("id").build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("source.db");
  }

  @Test
  void anAddedColumnKeepsTheNamesAndComesLast() {
    DebeziumTable evolved = ORDERS.withColumn("note", Schema.OPTIONAL_STRING_SCHEMA);

    assertThat(evolved.rowSchema().fields()).extracting(Field::name).containsExactly("id", "status", "note");
    assertThat(evolved.envelopeSchema().name()).isEqualTo(ORDERS.envelopeSchema().name());
    assertThat(ORDERS.rowSchema().fields()).as("the original is unchanged").hasSize(2);
  }

  @Test
  void customerEventsAreTheBytesTheTestsModelsWereWrittenFor() throws IOException {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true"), false);

    assertThat(converter.fromConnectData("t", CustomerEvents.VALUE, CustomerEvents.delete(0, 2)))
        .asString().isEqualTo(golden("customers-delete-0-v2.json"));
    assertThat(converter.fromConnectData("t", CustomerEvents.VALUE, CustomerEvents.upsert("u", 0, 3)))
        .asString().isEqualTo(golden("customers-update-0-v3.json"));
    assertThat(CustomerEvents.expectedValues(0, 3)).containsExactly(0L, null, new BigDecimal("0.03"), 1_767_225_603_000_000L);
  }

  private static void assertEvent(Struct event, String op, Struct before, Struct after, long tsMs) {
    assertThat(event.getString("op")).isEqualTo(op);
    assertThat(event.getStruct("before")).isEqualTo(before);
    assertThat(event.getStruct("after")).isEqualTo(after);
    assertThat(event.getInt64("ts_ms")).isEqualTo(tsMs);
    assertThat(event.getStruct("source").getInt64("ts_ms")).isEqualTo(tsMs);
  }

  private static String golden(String name) throws IOException {
    try (InputStream in = DebeziumTableTest.class.getResourceAsStream("/debezium/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
