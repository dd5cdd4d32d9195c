package io.mergesink.streams;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.storage.Converter;

/**
 * Keys or values as Connect data ({@link SchemaAndValue}) through a Connect {@link Converter}, so
 * that a Streams application reads the bytes a Debezium source wrote the way a Connect worker does:
 * {@code Consumed.with(ConnectSerde.keys(new JsonConverter(), props), ConnectSerde.values(new JsonConverter(), props))}.
 * Any converter works: Kafka's {@code JsonConverter}, MergeSink's {@code DebeziumJsonConverter}, Avro converters.
 */
public final class ConnectSerde implements Serde<SchemaAndValue> {
  private final Converter converter;

  private ConnectSerde(Converter converter) {
    this.converter = converter;
  }

  /** A serde of record keys: {@code converter} is configured with {@code settings} as a key converter. */
  public static ConnectSerde keys(Converter converter, Map<String, ?> settings) {
    Objects.requireNonNull(converter, "converter").configure(settings, true);
    return new ConnectSerde(converter);
  }

  /** A serde of record values: {@code converter} is configured with {@code settings} as a value converter. */
  public static ConnectSerde values(Converter converter, Map<String, ?> settings) {
    Objects.requireNonNull(converter, "converter").configure(settings, false);
    return new ConnectSerde(converter);
  }

  @Override
  public Serializer<SchemaAndValue> serializer() {
    return (topic, data) -> data == null ? null : converter.fromConnectData(topic, data.schema(), data.value());
  }

  @Override
  public Deserializer<SchemaAndValue> deserializer() {
    return (topic, bytes) -> bytes == null ? null : converter.toConnectData(topic, bytes);
  }
}
