package io.mergesink.connect.database;

import io.mergesink.core.data.Row;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.ConverterType;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;

/**
 * The change streams of a whole database of {@code customers}-shaped tables, as Debezium writes
 * them: one one-partition topic per table ({@code db.public.t0000}, ...), Debezium's JSON with
 * schemas, deletes followed by a tombstone half of the time; and the model of every source table.
 * One producer sends every topic's records, each partition's in order.
 */
final class DatabaseStream implements AutoCloseable {
  /** Every topic of the database and no other (a {@code topics.regex}). */
  static final String TOPICS_REGEX = "db\\.public\\.t\\d+";
  private static final long ADMIN_TIMEOUT_SECONDS = 60;
  /** The share of changes of a key that exists that delete it. */
  private static final double DELETE_SHARE = 0.2;

  private final EmbeddedKafkaCluster kafka;
  private final int tables;
  private final KafkaProducer<byte[], byte[]> producer;
  private final JsonConverter keys = converter(ConverterType.KEY);
  private final JsonConverter values = converter(ConverterType.VALUE);
  private final List<Map<Long, Row>> models = new ArrayList<>();
  private final List<Map<Long, Integer>> versions = new ArrayList<>();
  private long events;

  DatabaseStream(EmbeddedKafkaCluster kafka, int tables) {
    this.kafka = kafka;
    this.tables = tables;
    for (int table = 0; table < tables; table++) {
      models.add(new HashMap<>());
      versions.add(new HashMap<>());
    }
    // One request in flight keeps each partition's records in order across retries, without the
    // idempotent producer's sequence checks; a request carries every partition's batch.
    this.producer = kafka.createProducer(Map.of(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
        ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1",
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.LINGER_MS_CONFIG, "20"));
  }

  static String topic(int table) {
    return String.format(Locale.ROOT, "db.public.t%04d", table);
  }

  int tables() {
    return tables;
  }

  /** Change events sent so far, tombstones included. */
  long events() {
    return events;
  }

  /** Creates every table's topic (one partition) in one admin request and waits for it. */
  void createTopics() {
    List<NewTopic> topics = IntStream.range(0, tables).mapToObj(table -> new NewTopic(topic(table), 1, (short) 1)).toList();
    try (Admin admin = kafka.createAdminClient()) {
      admin.createTopics(topics).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot create " + tables + " topics: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    }
  }

  /**
   * {@code count} changes of table {@code table} over keys {@code 0..keys-1}: an insert of a key that
   * does not exist, otherwise an update or (one in five) a delete.
   */
  void changes(int table, int count, int keys, Random random) {
    for (int i = 0; i < count; i++) {
      long id = random.nextInt(keys);
      if (models.get(table).containsKey(id) && random.nextDouble() < DELETE_SHARE) {
        delete(table, id, random.nextBoolean());
      } else {
        upsert(table, id);
      }
    }
  }

  /** Waits until every record sent is acknowledged. */
  void flush() {
    producer.flush();
  }

  /** Source table {@code table} as its stream describes it: id → row. */
  Map<Long, Row> model(int table) {
    return models.get(table);
  }

  /** The end offset of every table's partition, in one admin request. */
  Map<TopicPartition, Long> endOffsets(Admin admin) {
    Map<TopicPartition, OffsetSpec> request = IntStream.range(0, tables)
        .mapToObj(table -> new TopicPartition(topic(table), 0))
        .collect(Collectors.toMap(Function.identity(), partition -> OffsetSpec.latest()));
    try {
      Map<TopicPartition, Long> offsets = new HashMap<>();
      admin.listOffsets(request).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
          .forEach((partition, info) -> offsets.put(partition, info.offset()));
      return offsets;
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the end offsets of " + tables + " topics: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading end offsets", e);
    }
  }

  @Override
  public void close() {
    producer.close();
  }

  private void upsert(int table, long id) {
    int version = versions.get(table).merge(id, 1, Integer::sum);
    String op = models.get(table).containsKey(id) ? "u" : "c";
    send(table, id, values.fromConnectData(topic(table), CustomerEvents.VALUE, CustomerEvents.upsert(op, id, version)));
    models.get(table).put(id, Row.of(CustomerEvents.expectedValues(id, version)));
  }

  private void delete(int table, long id, boolean tombstone) {
    int version = versions.get(table).merge(id, 1, Integer::sum);
    send(table, id, values.fromConnectData(topic(table), CustomerEvents.VALUE, CustomerEvents.delete(id, version)));
    if (tombstone) {
      send(table, id, null);
    }
    models.get(table).remove(id);
  }

  private void send(int table, long id, byte[] value) {
    byte[] key = keys.fromConnectData(topic(table), CustomerEvents.KEY, CustomerEvents.key(id));
    producer.send(new ProducerRecord<>(topic(table), 0, key, value));
    events++;
  }

  private static JsonConverter converter(ConverterType type) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", "converter.type", type.getName()));
    return converter;
  }
}
