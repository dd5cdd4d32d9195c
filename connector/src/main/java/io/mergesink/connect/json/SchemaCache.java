package io.mergesink.connect.json;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;

/**
 * The schemas parsed so far, by the bytes of their JSON: a record whose schema has the same bytes
 * as one seen before gets its parsed {@link Entry} without parsing. Found by a hash of the bytes
 * and then an equality check of every byte, so a hash collision never returns another schema;
 * before that, each topic's last schema is tried by comparing bytes only (Debezium sends one schema
 * per table until the table changes). Holds at most {@code capacity} schemas, least recently used
 * out first. Not thread-safe: Connect gives every task its own converter.
 */
final class SchemaCache {
  /** More topics than this and the per-topic shortcut starts afresh (it only saves a hash). */
  private static final int MAX_TOPICS = 1_000;

  /**
   * A parsed schema.
   *
   * @param bytes the schema's JSON, as records carry it
   * @param schema the Connect schema; null for a JSON {@code null} schema (schemaless payloads)
   * @param reader decodes payloads of this schema; null when the schema is one Kafka's converter
   *     must judge (it is invalid, or has a default value of a shape the reader does not take)
   */
  record Entry(byte[] bytes, Schema schema, ValueReader reader) {}

  /** Parses the schema JSON in {@code bytes[from, to)}; called once per distinct schema. */
  interface Parser {
    Entry parse(byte[] bytes, int from, int to);
  }

  private final Map<Key, Entry> entries;
  private final Map<String, Entry> lastByTopic = new HashMap<>();

  SchemaCache(int capacity) {
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The schema bytes this topic's last record had, or null: {@link JsonEnvelope#locate}'s hint. */
  byte[] likelySchema(String topic) {
    Entry last = lastByTopic.get(topic);
    return last == null ? null : last.bytes();
  }

  /** The entry of the schema JSON in {@code bytes[from, to)}, parsed by {@code parser} if new. */
  Entry entry(String topic, byte[] bytes, int from, int to, Parser parser) {
    Entry last = lastByTopic.get(topic);
    if (last != null && Arrays.equals(last.bytes(), 0, last.bytes().length, bytes, from, to)) {
      return last;
    }
    Key key = new Key(bytes, from, to);
    Entry entry = entries.get(key);
    if (entry == null) {
      entry = parser.parse(bytes, from, to);
      entries.put(new Key(entry.bytes(), 0, entry.bytes().length), entry);
    }
    if (lastByTopic.size() >= MAX_TOPICS) {
      lastByTopic.clear();
    }
    lastByTopic.put(topic, entry);
    return entry;
  }

  int size() {
    return entries.size();
  }

  /** A range of bytes as a map key: the range's hash, equal to another range with the same bytes. */
  private static final class Key {
    private final byte[] bytes;
    private final int from;
    private final int to;
    private final int hash;

    Key(byte[] bytes, int from, int to) {
      this.bytes = bytes;
      this.from = from;
      this.to = to;
      int h = 1;
      for (int i = from; i < to; i++) {
        h = 31 * h + bytes[i];
      }
      this.hash = h;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Key key && key.hash == hash && Arrays.equals(bytes, from, to, key.bytes, key.from, key.to);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
