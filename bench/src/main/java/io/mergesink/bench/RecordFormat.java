package io.mergesink.bench;

import io.mergesink.connect.json.DebeziumJsonConverter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.Converter;

/**
 * How the e2e suite's change events are serialized in Kafka and read by the worker: the converter
 * the producer writes with and the one the connector's worker reads with (set in the connector's
 * config, both configured from the same map). All give the sink {@link Struct}s of the same
 * Connect schema; what differs is the bytes and the cost of converting them.
 */
enum RecordFormat {
  /** JsonConverter with schemas: every record carries its schema as JSON. */
  JSON("json", JsonConverter.class, JsonConverter.class),
  /** The same bytes as {@link #JSON}, read by MergeSink's {@link DebeziumJsonConverter}. */
  JSON_FAST("json-fast", JsonConverter.class, DebeziumJsonConverter.class),
  /** {@link AvroBinaryConverter}: Avro binary, the schema known out of band. */
  AVRO("avro", AvroBinaryConverter.class, AvroBinaryConverter.class);

  private static final String KEY_CONVERTER = "key.converter";
  private static final String VALUE_CONVERTER = "value.converter";

  private final String label;
  private final Class<? extends Converter> producerConverter;
  private final Class<? extends Converter> workerConverter;

  RecordFormat(String label, Class<? extends Converter> producerConverter, Class<? extends Converter> workerConverter) {
    this.label = label;
    this.producerConverter = producerConverter;
    this.workerConverter = workerConverter;
  }

  String label() {
    return label;
  }

  /** The format named {@code label}. */
  static RecordFormat of(String label) {
    for (RecordFormat format : values()) {
      if (format.label.equals(label)) {
        return format;
      }
    }
    throw new IllegalArgumentException("unknown format '" + label + "', expected one of " + Arrays.stream(values()).map(RecordFormat::label).toList());
  }

  /** The connector config entries that make the worker read this format ({@code key.converter}, {@code value.converter} and theirs). */
  Map<String, String> connectorConfig() {
    Map<String, String> config = new LinkedHashMap<>();
    config.put(KEY_CONVERTER, workerConverter.getName());
    converterConfig(true).forEach((name, value) -> config.put(KEY_CONVERTER + "." + name, value));
    config.put(VALUE_CONVERTER, workerConverter.getName());
    converterConfig(false).forEach((name, value) -> config.put(VALUE_CONVERTER + "." + name, value));
    return config;
  }

  /** The converter the producer writes this format with. */
  Converter producerConverter(boolean isKey) {
    return newConverter(producerConverter, isKey);
  }

  /** A converter configured as the worker configures it from {@link #connectorConfig()}. */
  Converter workerConverter(boolean isKey) {
    return newConverter(workerConverter, isKey);
  }

  private Converter newConverter(Class<? extends Converter> type, boolean isKey) {
    Converter converter;
    try {
      converter = type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot instantiate converter " + type.getName(), e);
    }
    converter.configure(converterConfig(isKey), isKey);
    return converter;
  }

  /**
   * Checks that a key, an insert, an update and a delete written by the producer's converters come
   * back from the worker's as equal Structs of the same schema.
   *
   * @throws IllegalStateException naming the format and the event that did not
   */
  void requireStructRoundTrip() {
    Converter producerKeys = producerConverter(true);
    Converter producerValues = producerConverter(false);
    Converter workerKeys = workerConverter(true);
    Converter workerValues = workerConverter(false);
    requireRoundTrip(producerKeys, workerKeys, DebeziumEvents.KEY, DebeziumEvents.key(7));
    for (Struct value : List.of(DebeziumEvents.upsert("c", 7, 1), DebeziumEvents.upsert("u", 7, 2), DebeziumEvents.delete(7, 3))) {
      requireRoundTrip(producerValues, workerValues, DebeziumEvents.VALUE, value);
    }
  }

  private void requireRoundTrip(Converter producer, Converter worker, Schema schema, Struct sent) {
    String topic = "round-trip";
    SchemaAndValue received = worker.toConnectData(topic, producer.fromConnectData(topic, schema, sent));
    if (!(received.value() instanceof Struct struct) || !struct.equals(sent) || !schema.equals(received.schema())) {
      throw new IllegalStateException("format " + label + ": the sink would receive " + received + " where the producer sent " + sent);
    }
  }

  private Map<String, String> converterConfig(boolean isKey) {
    return switch (this) {
      case JSON, JSON_FAST -> Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
      case AVRO -> Map.of(AvroBinaryConverter.SCHEMA_CONFIG, (isKey ? DebeziumEvents.KEY : DebeziumEvents.VALUE).name());
    };
  }
}
