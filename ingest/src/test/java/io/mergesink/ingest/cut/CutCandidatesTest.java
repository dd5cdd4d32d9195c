package io.mergesink.ingest.cut;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.decode.TransactionEvent.Status;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CutCandidatesTest {
  private static final KafkaPartition TOPIC = new KafkaPartition("pg.transaction", 0);
  private static final long INTERVAL_MS = 1_000;

  private static TransactionEvent end(String id, long timestampMs) {
    return new TransactionEvent(Status.END, id, 1, Map.of("public.accounts", 1L), timestampMs);
  }

  @Test
  void anEndSentAgainAfterTheSourceRestartedKeepsTheTransactionsFirstPlace() {
    CutCandidates candidates = new CutCandidates(INTERVAL_MS);
    candidates.ended(TOPIC, 1, end("101", 1_100));
    candidates.ended(TOPIC, 3, end("102", 1_900));
    candidates.ended(TOPIC, 5, end("103", 2_100));
    // Debezium's task restarted from a position before 102 and sends it and 103 again
    candidates.ended(TOPIC, 7, end("102", 1_900));
    candidates.ended(TOPIC, 9, end("103", 2_100));
    candidates.ended(TOPIC, 11, end("104", 3_200));

    assertThat(candidates.endOffset("102")).hasValue(3);
    assertThat(candidates.ends(-1, 11)).extracting(CutCandidates.End::offset).containsExactly(1L, 3L, 5L, 11L);
    assertThat(candidates.candidates(-1)).extracting(CutCandidates.End::offset).isEqualTo(List.of(3L, 5L));
  }
}
