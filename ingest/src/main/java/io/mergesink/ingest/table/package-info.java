/**
 * The tables under the table root as a task writes them: finding and creating them
 * ({@link io.mergesink.ingest.table.TableCatalog}), fitting change events to their schemas and
 * evolving them, the rows of append tables, the task's file owners (its Kafka partitions) and
 * the key-index scope, and noticing topics that grew (docs/design.md, "File ownership", "Topics
 * that grow", "Schema evolution").
 */
package io.mergesink.ingest.table;
