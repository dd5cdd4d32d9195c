package io.mergesink.bench;

import org.apache.kafka.connect.storage.Converter;

/**
 * The Kafka key and value bytes of a change event in one {@link RecordFormat}, as Debezium would
 * produce them through that format's converters. Counts the bytes it encodes. Not thread-safe.
 */
final class ChangeEncoder {
  private final RecordFormat format;
  private final Converter keys;
  private final Converter values;
  private long events;
  private long bytes;

  ChangeEncoder(RecordFormat format) {
    this.format = format;
    this.keys = format.producerConverter(true);
    this.values = format.producerConverter(false);
  }

  RecordFormat format() {
    return format;
  }

  byte[] key(String topic, long id) {
    byte[] key = keys.fromConnectData(topic, DebeziumEvents.KEY, DebeziumEvents.key(id));
    bytes += key.length;
    return key;
  }

  /** The change event's value: the envelope of an insert, update or delete (a delete's tombstone is not encoded here). */
  byte[] value(String topic, E2eWorkload.Change change) {
    byte[] value = values.fromConnectData(topic, DebeziumEvents.VALUE, DebeziumEvents.event(change));
    events++;
    bytes += value.length;
    return value;
  }

  /** Average key + value bytes per change event encoded so far. */
  double bytesPerEvent() {
    return events == 0 ? Double.NaN : bytes / (double) events;
  }
}
