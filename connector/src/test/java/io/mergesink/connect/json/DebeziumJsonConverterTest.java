package io.mergesink.connect.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.mergesink.localconnect.debezium.DebeziumTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * DebeziumJsonConverter against Kafka's JsonConverter, value by value and schema by schema: random
 * Debezium events of every type, written by JsonConverter (both {@code decimal.format}s), with
 * tables changing their schema in the middle of a stream of interleaved topics; and input that is
 * not what JsonConverter writes, where the results, or the errors, must still be JsonConverter's.
 */
class DebeziumJsonConverterTest {
  private static final int TABLES = 30;
  private static final int EVENTS_PER_TABLE = 50;

  @ParameterizedTest
  @ValueSource(strings = {"BASE64", "NUMERIC"})
  void randomDebeziumEventsConvertAsJsonConverterConvertsThem(String decimalFormat) {
    long seed = System.nanoTime();
    RandomDebeziumEvents events = new RandomDebeziumEvents(seed);
    Map<String, String> config = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", JsonConverterConfig.DECIMAL_FORMAT_CONFIG, decimalFormat);
    JsonConverter writer = kafka(config, false);
    JsonConverter keyWriter = kafka(config, true);
    JsonConverter kafkaValues = kafka(config, false);
    JsonConverter kafkaKeys = kafka(config, true);
    DebeziumJsonConverter values = ours(config, false);
    DebeziumJsonConverter keys = ours(config, true);

    List<DebeziumTable> tables = new ArrayList<>();
    for (int table = 0; table < TABLES; table++) {
      tables.add(events.table("t" + table));
    }
    int checked = 0;
    for (int step = 0; step < TABLES * EVENTS_PER_TABLE; step++) {
      int table = step % TABLES;
      if (step % (TABLES * 7) == table) {
        tables.set(table, events.evolve(tables.get(table))); // a schema change in the middle of the stream
      }
      DebeziumTable source = tables.get(table);
      String topic = source.topic();
      long id = step;
      byte[] value = writer.fromConnectData(topic, source.envelopeSchema(), events.event(source, id));
      byte[] key = keyWriter.fromConnectData(topic, source.keySchema(), source.key(id));
      assertSame("seed " + seed + ", step " + step + ", value " + new String(value, StandardCharsets.UTF_8),
          kafkaValues.toConnectData(topic, value), values.toConnectData(topic, value));
      assertSame("seed " + seed + ", step " + step + ", key", kafkaKeys.toConnectData(topic, key), keys.toConnectData(topic, key));
      checked++;
    }
    assertThat(checked).isEqualTo(TABLES * EVENTS_PER_TABLE);
    assertThat(values.recordsHandedToKafka()).as("records JsonConverter had to convert (seed %d)", seed).isZero();
    assertThat(TrustedStructs.direct()).as("structs filled without Struct.put on this Kafka version").isTrue();
    assertThat(keys.recordsHandedToKafka()).isZero();
  }

  @Test
  void oddInputGetsJsonConverterResultsAndErrors() {
    Map<String, String> config = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    JsonConverter kafka = kafka(config, false);
    DebeziumJsonConverter ours = ours(config, false);
    String struct = "{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"a\"},"
        + "{\"type\":\"string\",\"optional\":true,\"field\":\"b\"}],\"optional\":false,\"name\":\"s\"}";
    List<String> inputs = List.of(
        "{\"schema\":" + struct + ",\"payload\":{\"a\":\"7\",\"b\":\"x\"}}",         // a string where an int belongs
        "{\"schema\":" + struct + ",\"payload\":{\"a\":1.9,\"b\":3}}",              // a float for an int, a number for a string
        "{\"schema\":" + struct + ",\"payload\":{\"a\":9999999999,\"b\":null}}",    // a long for an int
        "{\"schema\":" + struct + ",\"payload\":{\"b\":\"x\"}}",                     // a required field missing
        "{\"schema\":" + struct + ",\"payload\":null}",                              // a required value null
        "{\"schema\":" + struct + ",\"payload\":[1,2]}",                             // an array for a struct
        "{\"schema\":" + struct + ",\"payload\":{\"a\":1,\"a\":2}}",                 // a member twice
        "{\"payload\":{\"a\":1},\"schema\":" + struct + "}",                         // payload first
        " \n{ \"schema\" : " + struct + " ,\n \"payload\" : { \"a\" : 5 } } \n",     // pretty-printed
        "{\"schema\":" + struct + ",\"payload\":{\"a\":1},\"extra\":1}",             // another member
        "{\"schema\":" + struct + "}",                                               // no payload
        "{\"sch\\u0065ma\":" + struct + ",\"payload\":{\"a\":1}}",                   // an escaped key
        "{\"schema\":" + struct + ",\"payload\":{\"a\":1}} trailing",                // something after the envelope
        "{\"schema\":" + struct + ",\"payload\":{\"a\":1}",                          // cut short
        "{\"schema\":{\"type\":\"nonsense\"},\"payload\":1}",                        // an unknown type
        "{\"schema\":{\"type\":\"int32\",\"parameters\":{\"p\":1}},\"payload\":1}", // a parameter that is not a string
        "{\"schema\":null,\"payload\":{\"x\":[1,2.5,\"s\",true,null,{\"y\":{}}]}}", // schemaless
        "{\"schema\":null,\"payload\":123456789012345678901234567890}",              // schemaless, too big for a long
        "{\"schema\":{\"type\":\"double\"},\"payload\":\"NaN\"}",                     // JsonConverter's NaN
        "{\"schema\":{\"type\":\"double\"},\"payload\":-0.0}",
        "{\"schema\":{\"type\":\"float\",\"optional\":true,\"default\":1.5},\"payload\":null}",
        "{\"schema\":{\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\",\"parameters\":{\"scale\":\"2\"}},"
            + "\"payload\":\"not base64!\"}",
        "{\"schema\":{\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\",\"parameters\":{\"scale\":\"2\"}},\"payload\":12.50}",
        "{\"schema\":{\"type\":\"int32\",\"name\":\"org.apache.kafka.connect.data.Date\"},\"payload\":3000000000}",
        "{\"schema\":{\"type\":\"map\",\"keys\":{\"type\":\"int32\"},\"values\":{\"type\":\"string\"}},\"payload\":[[1,\"a\"],[2]]}",
        "{\"schema\":{\"type\":\"array\",\"items\":{\"type\":\"int32\"}},\"payload\":{\"x\":1}}",
        "{\"schema\":{\"type\":\"struct\",\"fields\":[],\"default\":{}},\"payload\":null}",
        "{\"schema\":{\"type\":\"string\"},\"payload\":\"\\ud83d\\ude00 \\\"quoted\\\" \\\\ \\/\"}",
        "null", "[]", "", "   ", "not json", "{}");
    for (String input : inputs) {
      byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
      Throwable expectedError = catchThrowable(() -> kafka.toConnectData("t", bytes));
      if (expectedError != null) {
        assertThatThrownBy(() -> ours.toConnectData("t", bytes)).as(input).isInstanceOf(expectedError.getClass())
            .hasMessage(expectedError.getMessage());
      } else {
        assertSame(input, kafka.toConnectData("t", bytes), ours.toConnectData("t", bytes));
      }
    }
    assertThat(ours.toConnectData("t", null)).isEqualTo(SchemaAndValue.NULL);
  }

  @Test
  void canonicalRecordsInAnyMemberOrderAndSpacingStayOnTheFastPath() {
    Map<String, String> config = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    JsonConverter kafka = kafka(config, false);
    DebeziumJsonConverter ours = ours(config, false);
    String schema = "{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"}],\"optional\":false}";
    for (String input : List.of("{\"schema\":" + schema + ",\"payload\":{\"id\":1}}", "{\"payload\":{\"id\":2},\"schema\":" + schema + "}",
        "\t{ \"schema\" :\n" + schema + " , \"payload\" : {\"id\": 3, \"ignored\": [1, {\"x\": \"}\"}]} }\r\n")) {
      byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
      assertSame(input, kafka.toConnectData("t", bytes), ours.toConnectData("t", bytes));
    }
    assertThat(ours.recordsHandedToKafka()).isZero();
    assertThat(ours.cachedSchemas()).isEqualTo(1);
  }

  @Test
  void schemaContentNullDefaultsAndSchemasDisabledFollowJsonConverterOptions() {
    String schema = "{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\",\"optional\":true,\"default\":42,\"field\":\"a\"}]}";
    for (Map<String, String> config : List.of(
        Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", JsonConverterConfig.REPLACE_NULL_WITH_DEFAULT_CONFIG, "false"),
        Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", JsonConverterConfig.REPLACE_NULL_WITH_DEFAULT_CONFIG, "true"),
        Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "false"))) {
      for (String input : List.of("{\"schema\":" + schema + ",\"payload\":{\"a\":null}}", "{\"schema\":" + schema + ",\"payload\":{}}",
          "{\"schema\":" + schema + ",\"payload\":{\"a\":7}}")) {
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        assertSame(config + " " + input, kafka(config, false).toConnectData("t", bytes), ours(config, false).toConnectData("t", bytes));
      }
    }
    Map<String, String> fixed = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", JsonConverterConfig.SCHEMA_CONTENT_CONFIG, schema);
    DebeziumJsonConverter ours = ours(fixed, false);
    for (String payload : List.of("{\"a\":1}", "{}", "{\"a\":null}")) {
      byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
      assertSame(payload, kafka(fixed, false).toConnectData("t", bytes), ours.toConnectData("t", bytes));
    }
  }

  @Test
  void theSchemaCacheIsBoundedAndEvictedSchemasAreParsedAgain() {
    Map<String, String> config = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", JsonConverterConfig.SCHEMAS_CACHE_SIZE_CONFIG, "3");
    JsonConverter kafka = kafka(config, false);
    DebeziumJsonConverter ours = ours(config, false);
    for (int round = 0; round < 3; round++) {
      for (int version = 0; version < 10; version++) {
        Schema schema = SchemaBuilder.struct().name("v" + version).field("f" + version, Schema.INT32_SCHEMA).build();
        byte[] bytes = kafka.fromConnectData("one-topic", schema, new Struct(schema).put("f" + version, version * round));
        assertSame("version " + version, kafka.toConnectData("one-topic", bytes), ours.toConnectData("one-topic", bytes));
      }
    }
    assertThat(ours.cachedSchemas()).isEqualTo(3);
    assertThat(ours.recordsHandedToKafka()).isZero();
  }

  @Test
  void fromConnectDataWritesJsonConverterBytes() {
    Map<String, String> config = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", JsonConverterConfig.DECIMAL_FORMAT_CONFIG, "NUMERIC");
    RandomDebeziumEvents events = new RandomDebeziumEvents(7);
    DebeziumTable table = events.table("dlq");
    Schema envelope = table.envelopeSchema();
    Struct event = events.event(table, 1);
    assertThat(ours(config, false).fromConnectData("t", envelope, event)).isEqualTo(kafka(config, false).fromConnectData("t", envelope, event));
    assertThat(ours(config, false).config().names()).isEqualTo(new JsonConverter().config().names());
  }

  private static JsonConverter kafka(Map<String, String> config, boolean isKey) {
    JsonConverter converter = new JsonConverter();
    converter.configure(config, isKey);
    return converter;
  }

  private static DebeziumJsonConverter ours(Map<String, String> config, boolean isKey) {
    DebeziumJsonConverter converter = new DebeziumJsonConverter();
    converter.configure(config, isKey);
    return converter;
  }

  /** Equal schemas, and equal values of the same Java classes all the way down (byte arrays by content). */
  private static void assertSame(String what, SchemaAndValue expected, SchemaAndValue actual) {
    assertThat(actual.schema()).as(what).isEqualTo(expected.schema());
    assertSameValue(what, expected.value(), actual.value());
  }

  private static void assertSameValue(String what, Object expected, Object actual) {
    if (expected == null || actual == null) {
      assertThat(actual).as(what).isEqualTo(expected);
    } else if (expected instanceof Struct struct) {
      assertThat(actual).as(what).isInstanceOf(Struct.class);
      assertThat(((Struct) actual).schema()).as(what).isEqualTo(struct.schema());
      ((Struct) actual).validate(); // filled without put: Connect must still find every value valid
      for (Field field : struct.schema().fields()) {
        assertSameValue(what + " ." + field.name(), struct.get(field), ((Struct) actual).get(field));
        assertSameValue(what + " ." + field.name() + " as held", struct.getWithoutDefault(field.name()),
            ((Struct) actual).getWithoutDefault(field.name()));
      }
    } else if (expected instanceof List<?> list) {
      assertThat(actual).as(what).isInstanceOf(List.class);
      assertThat((List<?>) actual).as(what).hasSameSizeAs(list);
      for (int i = 0; i < list.size(); i++) {
        assertSameValue(what + "[" + i + "]", list.get(i), ((List<?>) actual).get(i));
      }
    } else if (expected instanceof Map<?, ?> map) {
      assertThat(actual).as(what).isInstanceOf(Map.class);
      assertThat(((Map<?, ?>) actual).keySet()).as(what).isEqualTo(map.keySet());
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        assertSameValue(what + "{" + entry.getKey() + "}", entry.getValue(), ((Map<?, ?>) actual).get(entry.getKey()));
      }
    } else if (expected instanceof byte[] bytes) {
      assertThat(actual).as(what).isInstanceOf(byte[].class);
      assertThat((byte[]) actual).as(what).isEqualTo(bytes);
    } else {
      assertThat(actual).as(what).isInstanceOf(expected.getClass()).isEqualTo(expected);
    }
  }
}
