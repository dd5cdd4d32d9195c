/**
 * Where a task stands in each of its Kafka partitions, and which positions its tables hold (the txn
 * versions): docs/design.md, "Exactly once".
 */
package io.mergesink.ingest.position;
