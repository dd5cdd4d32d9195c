package io.mergesink.bench;

import io.mergesink.localconnect.LocalConnect;
import java.util.Map;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A producer of Debezium-shaped change events ({@link ChangeEncoder}) to the benchmarks' broker,
 * batched for throughput. The caller must {@link #close()} it.
 */
final class ChangeProducer implements AutoCloseable {
  private final KafkaProducer<byte[], byte[]> producer;

  ChangeProducer(LocalConnect connect) {
    producer = connect.createProducer(Map.of(
        ProducerConfig.ACKS_CONFIG, "1",
        ProducerConfig.LINGER_MS_CONFIG, "20",
        ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024)));
  }

  /**
   * Sends a change event of customer {@code change.id()}, encoded by {@code encoder}, to its
   * partition ({@link #partitionOf}); a delete is followed by its tombstone. {@code acked} (may be null) gets
   * the change event's acknowledgement.
   */
  void send(String topic, int partitions, ChangeEncoder encoder, E2eWorkload.Change change, Callback acked) {
    byte[] key = encoder.key(topic, change.id());
    int partition = partitionOf(change.id(), partitions);
    producer.send(new ProducerRecord<>(topic, partition, key, encoder.value(topic, change)), acked);
    if (change.op().equals("d")) {
      producer.send(new ProducerRecord<>(topic, partition, key, null));
    }
  }

  /** The partition the change events of customer {@code id} go to, as Debezium keys them: one per key. */
  static int partitionOf(long id, int partitions) {
    return (int) (id % partitions);
  }

  /** Waits until every event sent is acknowledged. */
  void flush() {
    producer.flush();
  }

  @Override
  public void close() {
    producer.close();
  }
}
