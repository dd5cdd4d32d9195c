/**
 * The reliability suite (docs/design.md, "How it is tested"): crashes at every commit step, storage faults, zombie tasks,
 * concurrent writers, rebalances, a broker restart, bad input and a seeded soak. Each scenario ends
 * with {@link io.mergesink.connect.reliability.TableAudit}: the table read by Delta Kernel equals the
 * model, txn versions are the end offsets − 1, and every file the log references exists.
 *
 * <p>Most scenarios drive the real {@code MergeSinkTask} through {@code TaskDriver} (Connect's consumer
 * loop without Connect, so a crash can stop a task at an exact file operation);
 * {@code ClusterFaultsIT} uses a real Connect cluster.
 */
package io.mergesink.connect.reliability;
