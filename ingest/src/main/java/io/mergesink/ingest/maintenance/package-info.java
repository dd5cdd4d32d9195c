/**
 * Table maintenance beside ingestion: compaction on a thread of its own per engine
 * (docs/design.md, "Maintenance").
 */
package io.mergesink.ingest.maintenance;
