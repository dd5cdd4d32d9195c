package io.mergesink.ingest.position;

import io.mergesink.core.commit.TxnChange;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The txns one commit of {@code table} records, by partition: each a compare-and-set from what the table holds. */
public record TableTxns(String table, Map<KafkaPartition, TxnChange> txns) {
  public TableTxns {
    txns = Collections.unmodifiableMap(new LinkedHashMap<>(txns));
  }
}
