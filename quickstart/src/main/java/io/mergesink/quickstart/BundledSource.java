package io.mergesink.quickstart;

import io.mergesink.localconnect.LocalConnect;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.ConverterType;

/**
 * The change stream Debezium would produce for the demo's table, written by the demo itself when
 * no PostgreSQL server is installed: {@link OrderEvents} serialized with {@link JsonConverter}
 * (schemas enabled), keyed by {@code id}, over {@value #PARTITIONS} partitions
 * ({@code id % partitions}). Keeps the table the events describe, to count its rows.
 */
final class BundledSource implements ChangeSource {
  static final int PARTITIONS = 2;

  private final Map<Integer, Order> table = new HashMap<>();
  private final JsonConverter keys = converter(ConverterType.KEY);
  private final JsonConverter values = converter(ConverterType.VALUE);
  private KafkaProducer<byte[], byte[]> producer;
  private final AtomicReference<Exception> sendFailure = new AtomicReference<>();
  private long events;

  @Override
  public String description() {
    return "bundled Debezium change stream (no PostgreSQL server binaries used)";
  }

  @Override
  public void start(LocalConnect connect, List<Order> initial) {
    connect.createTopic(topic(), PARTITIONS);
    // One request in flight keeps each partition's events in order across retries.
    producer = connect.createProducer(Map.of(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
        ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1",
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.LINGER_MS_CONFIG, "5"));
    for (Order order : initial) {
      table.put(order.id(), order);
      send(order.id(), values.fromConnectData(topic(), OrderEvents.VALUE, OrderEvents.upsert("r", order)));
    }
    flush();
  }

  @Override
  public void insert(Order order) {
    table.put(order.id(), order);
    send(order.id(), values.fromConnectData(topic(), OrderEvents.VALUE, OrderEvents.upsert("c", order)));
  }

  @Override
  public void update(Order order) {
    table.put(order.id(), order);
    send(order.id(), values.fromConnectData(topic(), OrderEvents.VALUE, OrderEvents.upsert("u", order)));
  }

  @Override
  public void delete(int id) {
    Order last = table.remove(id);
    if (last == null) {
      throw new IllegalArgumentException("cannot delete order " + id + ": the bundled table does not hold it");
    }
    send(id, values.fromConnectData(topic(), OrderEvents.VALUE, OrderEvents.delete(last)));
    send(id, null);
  }

  @Override
  public void flush() {
    producer.flush();
    Exception failure = sendFailure.get();
    if (failure != null) {
      throw new IllegalStateException("cannot write the bundled change stream to topic " + topic() + ": "
          + failure.getMessage(), failure);
    }
  }

  @Override
  public long expectedEvents() {
    return events;
  }

  @Override
  public long sourceRows() {
    return table.size();
  }

  @Override
  public String sourceTableName() {
    return "bundled stream's table public.orders";
  }

  @Override
  public void close() {
    if (producer != null) {
      producer.close();
    }
  }

  private void send(int id, byte[] value) {
    byte[] key = keys.fromConnectData(topic(), OrderEvents.KEY, OrderEvents.key(id));
    producer.send(new ProducerRecord<>(topic(), id % PARTITIONS, key, value), (metadata, error) -> {
      if (error != null) {
        sendFailure.compareAndSet(null, error);
      }
    });
    events++;
  }

  private static JsonConverter converter(ConverterType type) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true", "converter.type", type.getName()));
    return converter;
  }
}
