/**
 * Source transactions (docs/transactions.md): the ends of transactions, read from Debezium's
 * transaction topic by a consumer each task owns ({@link io.mergesink.ingest.transaction.KafkaTransactionEnds}),
 * behind {@link io.mergesink.ingest.transaction.TransactionEnds}, which buffers ask when they decide
 * which changes form whole transactions.
 */
package io.mergesink.ingest.transaction;
