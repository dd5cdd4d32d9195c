/**
 * Apache Paimon primary-key tables, written through Paimon's Java library (docs/paimon.md): the
 * library buckets rows, writes their LSM trees, looks up and marks replaced rows in deletion
 * vectors, compacts and commits; this package turns change sets into {@code +I}/{@code -D} rows,
 * records the Kafka positions in snapshot properties and checks them where Paimon publishes a
 * snapshot ({@link io.mergesink.ingest.format.paimon.PositionGuard}).
 */
package io.mergesink.ingest.format.paimon;
