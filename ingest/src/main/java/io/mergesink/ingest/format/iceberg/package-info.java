/**
 * Apache Iceberg tables, written through Iceberg's Java library (docs/iceberg.md): the library
 * writes data files, deletion vectors, manifests and commits; this package decides which rows to
 * write and which positions to delete, answers the live rows that changes are decided against
 * (ordering, soft deletes, history tables), and records the Kafka positions in snapshot summaries.
 */
package io.mergesink.ingest.format.iceberg;
