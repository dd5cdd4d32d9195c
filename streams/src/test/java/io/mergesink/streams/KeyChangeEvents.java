package io.mergesink.streams;

import io.mergesink.localconnect.debezium.CustomerEvents;
import io.mergesink.core.data.Row;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.SimpleHeaderConverter;

/**
 * PostgreSQL {@code UPDATE customers SET id = <new> WHERE id = <old>} of a row whose TOASTed
 * {@code name} is unchanged, as Debezium sends it in JSON with schemas: a delete of the old key
 * naming the new one ({@code __debezium.newkey}), the old key's tombstone, and a create of the new
 * key naming the old one ({@code __debezium.oldkey}) with the placeholder for {@code name}. The
 * old row is {@link CustomerEvents#upsert} of the old key in version 1.
 */
final class KeyChangeEvents {
  private static final Map<String, String> JSON = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");

  private KeyChangeEvents() {}

  static byte[] key(String topic, long id) {
    JsonConverter converter = new JsonConverter();
    converter.configure(JSON, true);
    return converter.fromConnectData(topic, CustomerEvents.KEY, CustomerEvents.key(id));
  }

  static byte[] envelope(String topic, Struct value) {
    JsonConverter converter = new JsonConverter();
    converter.configure(JSON, false);
    return converter.fromConnectData(topic, CustomerEvents.VALUE, value);
  }

  static byte[] deleteEnvelope(String topic, long oldId) {
    return envelope(topic, CustomerEvents.delete(oldId, 2));
  }

  static Headers deleteHeaders(String topic, long newId) {
    return new RecordHeaders().add("__debezium.newkey", keyHeader(topic, newId));
  }

  static byte[] createEnvelope(String topic, long newId) {
    Struct create = CustomerEvents.upsert("c", newId, 3);
    create.getStruct("after").put("name", "__debezium_unavailable_value");
    return envelope(topic, create);
  }

  static Headers createHeaders(String topic, long oldId) {
    return new RecordHeaders().add("__debezium.oldkey", keyHeader(topic, oldId));
  }

  /** The row the table must hold after the key change: the create's, with the old row's {@code name}. */
  static Row expectedRow(long oldId, long newId) {
    Row created = CustomerEvents.expectedRow(newId, 3);
    return Row.of(newId, CustomerEvents.expectedRow(oldId, 1).get(1), created.get(2), created.get(3));
  }

  /** A key as a Connect worker's default header converter writes it. */
  private static byte[] keyHeader(String topic, long id) {
    return new SimpleHeaderConverter().fromConnectHeader(topic, "key", CustomerEvents.KEY, CustomerEvents.key(id));
  }
}
