/**
 * The tables under the table root as a task writes them: finding and creating them
 * ({@link io.mergesink.ingest.table.TableCatalog}), fitting change events to their schemas and
 * evolving them, what differs between keyed and append tables
 * ({@link io.mergesink.ingest.table.TableKind}) and the rows of append tables, the task's file
 * owners (its Kafka partitions) and the key-index scope, and noticing topics that grew
 * (docs/design.md, "File ownership", "Topics that grow", "Schema evolution", "Append tables").
 */
package io.mergesink.ingest.table;
