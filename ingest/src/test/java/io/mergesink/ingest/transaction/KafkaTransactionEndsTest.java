package io.mergesink.ingest.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.ingest.config.TransactionOptions;
import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.decode.TransactionEvent.Status;
import io.mergesink.ingest.options.TransactionBoundaries;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaTransactionEndsTest {
  @Test
  void aJsonValueWithoutSchemaIsReadAndAnythingElseIsNoEvent() {
    byte[] json = ("{\"status\":\"END\",\"id\":\"571:34741496\",\"event_count\":2,\"data_collections\":"
        + "[{\"data_collection\":\"s1.a\",\"event_count\":1},{\"data_collection\":\"s2.a\",\"event_count\":1}]}")
        .getBytes(StandardCharsets.UTF_8);

    assertThat(KafkaTransactionEnds.decode(json)).contains(new TransactionEvent(Status.END, "571:34741496", 2,
        Map.of("s1.a", 1L, "s2.a", 1L)));
    assertThat(KafkaTransactionEnds.decode(new byte[] {0, 0, 0, 0, 1, 2})).as("an Avro value").isEmpty();
    assertThat(KafkaTransactionEnds.decode(null)).isEmpty();
  }

  @Test
  void theTransactionTopicIsThePrefixOfEachTopicUnlessNamed() {
    TransactionOptions derived = new TransactionOptions(TransactionBoundaries.AUTO, "", Map.of());
    assertThat(derived.transactionTopicOf("pg.public.orders")).isEqualTo("pg.transaction");
    assertThat(derived.keepsTransactionsWhole()).as("auto, without a consumer of the transaction topic").isFalse();

    TransactionOptions named = new TransactionOptions(TransactionBoundaries.AUTO, "txs", Map.of("bootstrap.servers", "kafka:9092"));
    assertThat(named.transactionTopicOf("pg.public.orders")).isEqualTo("txs");
    assertThat(named.keepsTransactionsWhole()).isTrue();
  }
}
