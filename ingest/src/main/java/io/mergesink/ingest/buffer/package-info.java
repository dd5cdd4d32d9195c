/**
 * Per-partition buffers of decoded change events (docs/design.md, "Data flow"): one
 * {@link io.mergesink.ingest.buffer.PartitionBuffer} per topic-partition coalesces changes by
 * primary key (one map key → last change), merges unchanged TOAST values, applies truncates, tracks
 * its size and the partition's position, and is drained into per-table
 * {@link io.mergesink.ingest.buffer.TableChanges} that a writer turns into a change set. No I/O.
 */
package io.mergesink.ingest.buffer;
