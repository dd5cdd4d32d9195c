package io.mergesink.streams;

import io.mergesink.core.testing.KernelTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer interceptor for a Streams application's main consumer that checks, each time the
 * consumer committed offsets, that the table already holds every record below them: its txn
 * version of each partition is at least the committed offset − 1. What it saw is kept for the test.
 */
public final class TableAheadOfOffsets implements ConsumerInterceptor<byte[], byte[]> {
  /** Settings of the interceptor, passed through the consumer's configuration. */
  static final String TABLE = "mergesink.test.table";
  static final String APP_ID = "mergesink.test.txn.app.id";

  private static final List<String> VIOLATIONS = new ArrayList<>();
  private static int commitsChecked;

  private Path table;
  private String appId;

  @Override
  public void configure(Map<String, ?> configs) {
    table = Path.of((String) configs.get(TABLE));
    appId = (String) configs.get(APP_ID);
  }

  @Override
  public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
    return records;
  }

  @Override
  public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : offsets.entrySet()) {
      TopicPartition partition = entry.getKey();
      long committed = entry.getValue().offset();
      Optional<Long> inTable = Files.exists(table.resolve("_delta_log"))
          ? KernelTables.txnVersion(table.toString(), appId + ":" + partition.topic() + ":" + partition.partition())
          : Optional.empty();
      record(committed > 0 && inTable.orElse(-1L) < committed - 1
          ? "offset " + committed + " of " + partition + " committed while the table holds " + inTable
          : null);
    }
  }

  private static synchronized void record(String violation) {
    commitsChecked++;
    if (violation != null) {
      VIOLATIONS.add(violation);
    }
  }

  static synchronized int commitsChecked() {
    return commitsChecked;
  }

  static synchronized List<String> violations() {
    return List.copyOf(VIOLATIONS);
  }

  @Override
  public void close() {}
}
