/**
 * Per-partition buffers of decoded change events (docs/design.md, "Data flow"): one
 * {@link io.mergesink.ingest.buffer.PartitionBuffer} per topic-partition keeps each table's
 * {@link io.mergesink.ingest.buffer.PendingChanges}: coalesced by primary key for keyed tables (one
 * map key → last change, unchanged TOAST values merged, truncates applied), every event in offset
 * order for append tables; the buffer tracks its size; its pending {@link io.mergesink.ingest.buffer.TableChanges} become change sets
 * when the engine flushes. No I/O, no positions (those are {@code ingest.position}'s).
 */
package io.mergesink.ingest.buffer;
