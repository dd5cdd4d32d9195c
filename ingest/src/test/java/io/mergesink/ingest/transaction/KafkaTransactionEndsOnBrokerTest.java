package io.mergesink.ingest.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.ingest.config.TransactionOptions;
import io.mergesink.ingest.options.TransactionBoundaries;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.localconnect.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The reader of the transaction topic against a real broker. */
class KafkaTransactionEndsOnBrokerTest {
  private static final String TOPIC = "pg.transaction";
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static EmbeddedKafkaCluster kafka;

  @BeforeAll
  static void startBroker() {
    kafka = new EmbeddedKafkaCluster(1, new Properties());
    kafka.start();
    kafka.createTopic(TOPIC, 1);
  }

  @AfterAll
  static void stopBroker() {
    kafka.stop();
  }

  @Test
  void readingFailuresWhileTheBrokerIsDownAreRetriedAndTransactionsStillEnd() throws Exception {
    produceEnd("1");
    TransactionOptions options = new TransactionOptions(TransactionBoundaries.AUTO, "", Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        // the consumer's calls give up after a second while the broker is down: each is a failure to read
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "1000",
        ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "1000"));
    try (KafkaTransactionEnds ends = new KafkaTransactionEnds(options)) {
      kafka.stopOnlyBrokers();
      ends.follow(new KafkaPartition("pg.public.accounts", 0), 0);
      Await.until("a failure to read the transaction topic while the broker is down", TIMEOUT, () -> ends.failures() >= 2);

      kafka.restartOnlyBrokers();
      produceEnd("2");

      Await.until("the ends of transactions 1 and 2, read after the broker came back", TIMEOUT,
          () -> ends.end("1").isPresent() && ends.end("2").isPresent());
      assertThat(ends.end("2").orElseThrow().tableCounts()).containsEntry("public.accounts", 2L);
    }
  }

  @Test
  void thePartitionCountsOfTopicsAskedAboutAreReadFromTheBroker() {
    kafka.createTopic("pg.public.lines", 3);
    TransactionOptions options = new TransactionOptions(TransactionBoundaries.AUTO, "",
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    try (KafkaTransactionEnds ends = new KafkaTransactionEnds(options)) {
      assertThat(ends.partitionCount("pg.public.lines")).as("before it is read").isEmpty();
      Await.until("the partition count of pg.public.lines", TIMEOUT, () -> ends.partitionCount("pg.public.lines").isPresent());
      assertThat(ends.partitionCount("pg.public.lines")).hasValue(3);
      assertThat(ends.partitionCount("pg.public.missing")).isEmpty();
    }
  }

  @Test
  void theEndOffsetOfADataPartitionIsLookedUpAfterTheEndsReadBeforeIt() throws Exception {
    KafkaPartition orders = new KafkaPartition("pg.public.orders", 0);
    kafka.createTopic(orders.topic(), 1);
    try (KafkaProducer<byte[], byte[]> producer = kafka.createProducer(Map.of())) {
      for (int i = 0; i < 3; i++) {
        producer.send(new ProducerRecord<>(orders.topic(), 0, null, new byte[] {(byte) i})).get();
      }
    }
    produceEnd("orders-1");
    TransactionOptions options = new TransactionOptions(TransactionBoundaries.AUTO, "",
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    try (KafkaTransactionEnds ends = new KafkaTransactionEnds(options)) {
      ends.follow(orders, 0);
      Await.until("the end of transaction orders-1", TIMEOUT, () -> ends.end("orders-1").isPresent());
      long endAt = kafka.endOffset(new TopicPartition(TOPIC, 0)) - 1;

      Await.until("the end offset of " + orders + " after the end at " + endAt, TIMEOUT,
          () -> ends.endOffsetAfter(orders, endAt).isPresent());
      assertThat(ends.endOffsetAfter(orders, endAt)).hasValue(3);
      assertThat(ends.endOffsetAfter(orders, endAt + 1)).as("an end not read yet").isEmpty();
    }
  }

  private static void produceEnd(String id) throws Exception {
    String end = "{\"status\":\"END\",\"id\":\"" + id + "\",\"ts_ms\":1700000000000,\"event_count\":2,\"data_collections\":"
        + "[{\"data_collection\":\"public.accounts\",\"event_count\":2}]}";
    try (KafkaProducer<byte[], byte[]> producer = kafka.createProducer(Map.of())) {
      producer.send(new ProducerRecord<>(TOPIC, 0, null, end.getBytes(StandardCharsets.UTF_8))).get();
    }
  }
}
