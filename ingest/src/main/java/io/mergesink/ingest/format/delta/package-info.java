/**
 * Delta Lake tables behind the table-format seam, written by merge-core
 * (docs/design.md, "Table formats"): {@link io.mergesink.ingest.format.delta.DeltaFormat} finds
 * and creates tables by their {@code _delta_log}, {@link io.mergesink.ingest.format.delta.DeltaFormatTable}
 * follows a table's snapshots and writes it through a merge-core writer, positions are {@code txn}
 * actions, and {@link io.mergesink.ingest.format.delta.PartitionOwners} tags files with the task's
 * Kafka partitions and scopes its key index (docs/design.md, "File ownership").
 */
package io.mergesink.ingest.format.delta;
