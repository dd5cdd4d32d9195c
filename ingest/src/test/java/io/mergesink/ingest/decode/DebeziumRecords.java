package io.mergesink.ingest.decode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Builds records the way a Connect worker hands them over: Debezium event JSON (key and value, with
 * schemas, as the PostgreSQL and MySQL connectors emit them) through the real JsonConverter.
 */
public final class DebeziumRecords {
  private static final ObjectMapper JSON = new ObjectMapper();
  public static final long RECORD_TIMESTAMP = 1_709_288_199_000L;

  private DebeziumRecords() {}

  /** The event in {@code src/test/resources/debezium/<name>} as the record at the given position. */
  public static KafkaRecord load(String name, String topic, int partition, long offset) {
    JsonNode event;
    try (InputStream in = DebeziumRecords.class.getResourceAsStream("/debezium/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource debezium/" + name);
      }
      event = JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    SchemaAndValue key = converter(true).toConnectData(topic, bytes(event.get("key")));
    SchemaAndValue value = converter(false).toConnectData(topic, bytes(event.get("value")));
    return new KafkaRecord(new KafkaPartition(topic, partition), offset, topic, RECORD_TIMESTAMP, key.schema(), key.value(), value.schema(),
        value.value(), RecordHeaders.NONE);
  }

  /** A schemaless JSON record (JsonConverter with schemas.enable=false). */
  public static KafkaRecord schemaless(String keyJson, String valueJson, String topic, long offset) {
    JsonConverter keys = new JsonConverter();
    keys.configure(Map.of("schemas.enable", "false"), true);
    JsonConverter values = new JsonConverter();
    values.configure(Map.of("schemas.enable", "false"), false);
    SchemaAndValue key = keys.toConnectData(topic, keyJson == null ? null : keyJson.getBytes(StandardCharsets.UTF_8));
    SchemaAndValue value = values.toConnectData(topic,
        valueJson == null ? null : valueJson.getBytes(StandardCharsets.UTF_8));
    return new KafkaRecord(new KafkaPartition(topic, 0), offset, topic, RECORD_TIMESTAMP, key.schema(), key.value(), value.schema(),
        value.value(), RecordHeaders.NONE);
  }

  /** {@code record} with one header, as the worker's header converter hands its value over. */
  public static KafkaRecord withHeader(KafkaRecord record, String name, Object value) {
    return new KafkaRecord(record.partition(), record.offset(), record.routingTopic(), record.timestamp(), record.keySchema(),
        record.key(), record.valueSchema(), record.value(), header -> header.equals(name) ? value : null);
  }

  private static JsonConverter converter(boolean isKey) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "true"), isKey);
    return converter;
  }

  private static byte[] bytes(JsonNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
