/**
 * The reliability suite (docs/design.md, "The reliability matrix"): crashes at every commit step,
 * storage faults, zombie tasks, concurrent writers, rebalances, partitions moving between tasks, a
 * column added mid-stream, a topic that gains partitions, deletes without a before image, abrupt
 * worker stops, a broker restart, bad input and a seeded soak, each in the cells of {@link
 * io.mergesink.connect.reliability.Matrix} (layout × compaction × CDC mode; crashes, storage faults,
 * zombies and concurrent writers also with the table on S3 and on Azure; the scenarios that are not about Delta's
 * own mechanics also in Iceberg tables). Each scenario ends with {@link
 * io.mergesink.connect.reliability.MatrixAudit} ({@link io.mergesink.ingest.testing.TableAudit} in
 * the cell): the table read by Delta Kernel (Iceberg's generic reader) holds what {@link io.mergesink.ingest.testing.Expected}
 * says (rows by key, by key and version in history tables, or by Kafka position in append tables;
 * the mode's model from {@link io.mergesink.connect.reliability.SourceTable}), a change feed replayed rebuilds the table, txn
 * versions (positions in Iceberg's snapshot summaries) are the end offsets − 1, and every file the
 * log (the Iceberg snapshot) references exists.
 *
 * <p>Most scenarios drive the real {@code MergeSinkTask} through {@code TaskDriver} and {@code
 * TaskGroup} (Connect's consumer loop and consumer group without Connect, so a crash can stop a task
 * at an exact file operation); {@code ClusterFaultsIT} uses a real Connect cluster.
 */
package io.mergesink.connect.reliability;
