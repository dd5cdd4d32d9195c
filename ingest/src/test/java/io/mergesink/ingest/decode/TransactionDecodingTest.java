package io.mergesink.ingest.decode;

import static io.mergesink.ingest.decode.DebeziumRecords.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.TransactionEvent.Status;
import io.mergesink.ingest.options.PrimaryKeyMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionDecodingTest {
  private static final String TOPIC = "pg.public.customers";
  private static final RecordDecoder DECODER = new RecordDecoder(new DecoderOptions(PrimaryKeyMode.RECORD_KEY, List.of(), true, false,
      LogicalTypes.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER, false, true));

  @Test
  void aChangeKeepsTheTransactionBlockOfItsEnvelope() {
    ChangeEvent event = DECODER.decode(load("pg-delete-in-transaction.json", TOPIC, 0, 7));

    assertThat(event.op()).isEqualTo(Op.DELETE);
    assertThat(event.transaction()).isEqualTo(new SourceTransaction("771", 3, 2));
  }

  @Test
  void aChangeWithoutTransactionMetadataHasNoTransaction() {
    assertThat(DECODER.decode(load("pg-delete.json", TOPIC, 0, 7)).transaction()).isNull();
  }

  @Test
  void aFlattenedRowKeepsTheTransactionFieldsExtractNewRecordStateAdds() {
    ChangeEvent event = DECODER.decode(DebeziumRecords.schemaless("{\"id\": 1}", "{\"id\": 1, \"name\": \"a\", "
        + "\"__transaction_id\": \"772:24023200\", \"__transaction_total_order\": 4, \"__transaction_data_collection_order\": 1}",
        TOPIC, 3));

    assertThat(event.transaction()).isEqualTo(new SourceTransaction("772:24023200", 4, 1));
  }

  @Test
  void theEndOfATransactionCountsItsEventsPerTable() {
    TransactionEvent end = TransactionEvent.of(load("pg-transaction-end.json", "pg.transaction", 0, 12).value()).orElseThrow();

    assertThat(end).isEqualTo(new TransactionEvent(Status.END, "771:24023128", 5,
        Map.of("public.customers", 3L, "public.orders", 2L), 1709288132010L));
  }

  @Test
  void theBeginOfATransactionCountsNothing() {
    TransactionEvent begin = TransactionEvent.of(load("pg-transaction-begin.json", "pg.transaction", 0, 11).value()).orElseThrow();

    assertThat(begin).isEqualTo(new TransactionEvent(Status.BEGIN, "771:24023128", 0, Map.of(), 1709288132000L));
  }

  @Test
  void thePostgresConnectorsEventsOfOneTransactionNameItByItsXidThoughEachCarriesItsOwnLsn() {
    // as Debezium 3.6's PostgreSQL connector wrote them for one transaction: BEGIN, a change of each table, END
    TransactionEvent begin = TransactionEvent.of(Map.of("status", "BEGIN", "id", "762:26420248")).orElseThrow();
    SourceTransaction change = TransactionEvent.transactionOf(Map.of("id", "762:26420336", "total_order", 2,
        "data_collection_order", 1));
    TransactionEvent end = TransactionEvent.of(Map.of("status", "END", "id", "762:26420640", "event_count", 3,
        "data_collections", List.of(Map.of("data_collection", "public.accounts_a", "event_count", 1)))).orElseThrow();

    assertThat(List.of(begin.id(), change.id(), end.id())).containsOnly("762");
    assertThat(new SourceTransaction("3E11FA47-71CA-11E1-9E33-C80AA9429562:23", 1, 1).id())
        .as("a MySQL GTID").isEqualTo("3E11FA47-71CA-11E1-9E33-C80AA9429562:23");
  }

  @Test
  void schemalessJsonWithItsSchemaEnvelopeIsUnwrapped() {
    Map<String, Object> json = Map.of("schema", Map.of(), "payload", Map.of("status", "END", "id", "9", "event_count", 1,
        "data_collections", List.of(Map.of("data_collection", "public.a", "event_count", 1))));

    assertThat(TransactionEvent.of(json)).contains(new TransactionEvent(Status.END, "9", 1, Map.of("public.a", 1L)));
  }

  @Test
  void aValueThatIsNoTransactionEventIsNone() {
    assertThat(TransactionEvent.of(Map.of("id", 1))).isEmpty();
    assertThatThrownBy(() -> TransactionEvent.of(Map.of("status", "COMMIT", "id", "9")))
        .hasMessageContaining("transaction 9 has status 'COMMIT', expected BEGIN or END");
  }
}
