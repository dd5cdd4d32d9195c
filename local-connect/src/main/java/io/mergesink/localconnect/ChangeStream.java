package io.mergesink.localconnect;

import io.mergesink.core.data.Row;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.ConverterType;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;

/**
 * Produces a Debezium change stream of {@link CustomerEvents} into a topic (key {@code id}
 * partitioned by {@code id % partitions}, as a keyed topic would be, or {@linkplain #hashed by the
 * hash of the key bytes} as Kafka's default partitioner does) and keeps the model of the source
 * table it describes.
 */
public final class ChangeStream implements AutoCloseable {
  private final String topic;
  private final Partitioner partitioner;
  private int partitions;
  private final KafkaProducer<byte[], byte[]> producer;
  private final JsonConverter keys = converter(ConverterType.KEY);
  private final JsonConverter values = converter(ConverterType.VALUE);
  private final Map<Long, Row> model = new HashMap<>();
  private final Map<Long, Integer> versions = new HashMap<>();

  public ChangeStream(LocalConnect connect, String topic, int partitions) {
    this(connect.cluster().kafka(), topic, partitions);
  }

  /** A stream into {@code kafka}, for tests whose Connect workers run elsewhere (compat/tests). */
  public ChangeStream(EmbeddedKafkaCluster kafka, String topic, int partitions) {
    this(kafka, topic, partitions, (id, key, count) -> (int) (id % count));
  }

  private ChangeStream(EmbeddedKafkaCluster kafka, String topic, int partitions, Partitioner partitioner) {
    this.topic = topic;
    this.partitions = partitions;
    this.partitioner = partitioner;
    // One request in flight keeps each partition's records in order across retries (a new topic's
    // first sends may meet a leader election), without the idempotent producer's sequence checks.
    this.producer = kafka.createProducer(Map.of(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
        ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1",
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.LINGER_MS_CONFIG, "5"));
  }

  /**
   * A stream whose keys go where Kafka's default partitioner sends them:
   * {@code toPositive(murmur2(key bytes)) % partitions}, so a key moves when the topic {@linkplain #grow grows}.
   */
  public static ChangeStream hashed(LocalConnect connect, String topic, int partitions) {
    return new ChangeStream(connect.cluster().kafka(), topic, partitions, (id, key, count) -> Utils.toPositive(Utils.murmur2(key)) % count);
  }

  /** The topic has {@code partitions} partitions now: keys are hashed over them from the next record on. */
  public void grow(int partitions) {
    flush();
    this.partitions = partitions;
  }

  /** Inserts (or, for a key that exists, updates) {@code id}. */
  public void upsert(long id) {
    int version = versions.merge(id, 1, Integer::sum);
    String op = model.containsKey(id) ? "u" : "c";
    send(id, values.fromConnectData(topic, CustomerEvents.VALUE, CustomerEvents.upsert(op, id, version)));
    model.put(id, Row.of(CustomerEvents.expectedValues(id, version)));
  }

  /** Deletes {@code id} (a delete event, and with {@code tombstone} the tombstone that follows it). */
  public void delete(long id, boolean tombstone) {
    int version = versions.merge(id, 1, Integer::sum);
    send(id, values.fromConnectData(topic, CustomerEvents.VALUE, CustomerEvents.delete(id, version)));
    if (tombstone) {
      send(id, null);
    }
    model.remove(id);
  }

  /**
   * A mixed workload over {@code keys} keys: inserts of all, then random updates, deletes (half
   * with tombstones), re-inserts, and bursts of changes to the same keys.
   */
  public void mixedWorkload(int keys, Random random) {
    for (long id = 0; id < keys; id++) {
      upsert(id);
    }
    for (int i = 0; i < keys / 2; i++) {
      upsert(random.nextInt(keys));
    }
    for (int i = 0; i < keys / 5; i++) {
      long id = random.nextInt(keys);
      if (model.containsKey(id)) {
        delete(id, random.nextBoolean());
      }
    }
    for (int i = 0; i < keys / 20; i++) {
      upsert(random.nextInt(keys));
    }
    for (int burst = 0; burst < 5; burst++) {
      for (long id = 0; id < Math.min(keys, 100); id++) {
        upsert(id);
      }
    }
  }

  /**
   * {@code count} random changes over {@code keys} keys, skewed to low ids (a few hot keys): one in
   * five a delete (half with tombstones), the others upserts; then waits until all are acknowledged.
   */
  public void skewedChanges(int keys, int count, Random random) {
    for (int i = 0; i < count; i++) {
      long id = (long) (keys * Math.pow(random.nextDouble(), 2));
      if (random.nextInt(5) == 0) {
        delete(id, random.nextBoolean());
      } else {
        upsert(id);
      }
    }
    flush();
  }

  /** Waits until every record sent is acknowledged. */
  public void flush() {
    producer.flush();
  }

  /** The source table as the stream describes it: id → row. */
  public Map<Long, Row> model() {
    return model;
  }

  @Override
  public void close() {
    producer.close();
  }

  private void send(long id, byte[] value) {
    byte[] key = keys.fromConnectData(topic, CustomerEvents.KEY, CustomerEvents.key(id));
    producer.send(new ProducerRecord<>(topic, partitioner.partition(id, key, partitions), key, value));
  }

  /** The partition of a record of key {@code id} (serialized as {@code key}) in a topic of {@code count} partitions. */
  @FunctionalInterface
  private interface Partitioner {
    int partition(long id, byte[] key, int count);
  }

  private static JsonConverter converter(ConverterType type) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", "converter.type", type.getName()));
    return converter;
  }
}
