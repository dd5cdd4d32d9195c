package io.mergesink.ingest.decode;

import java.util.Objects;

/**
 * The source transaction of a change: Debezium's {@code transaction} block, present with
 * {@code provide.transaction.metadata=true} (or the {@code __transaction_*} fields ExtractNewRecordState
 * adds with {@code add.fields=transaction.id,transaction.total_order,transaction.data_collection_order}).
 *
 * @param id the transaction's id as all its events name it ({@link TransactionIds}: PostgreSQL's xid, a
 *     MySQL GTID or binlog position)
 * @param totalOrder the change's place among all changes of the transaction, from 1
 * @param dataCollectionOrder its place among the transaction's changes of its table, from 1
 */
public record SourceTransaction(String id, long totalOrder, long dataCollectionOrder) {
  public SourceTransaction {
    id = TransactionIds.of(Objects.requireNonNull(id, "id"));
  }
}
