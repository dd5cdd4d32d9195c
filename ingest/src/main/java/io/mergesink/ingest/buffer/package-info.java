/**
 * Per-partition buffers of decoded change events (docs/design.md, "Data flow"): one
 * {@link io.mergesink.ingest.buffer.PartitionBuffer} per topic-partition coalesces changes by
 * primary key (one map key → last change), merges unchanged TOAST values, applies truncates and
 * tracks its size; its pending {@link io.mergesink.ingest.buffer.TableChanges} become change sets
 * when the engine flushes. No I/O, no positions (those are {@code ingest.position}'s).
 */
package io.mergesink.ingest.buffer;
