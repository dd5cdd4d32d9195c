/**
 * The primary-key index of the merge engine: primary key → live row locations (data file id, row
 * index), used by the deletion-vector merge to find the row each change replaces (docs/design.md, "Merge strategies",
 * "Invariant"). Pure in-memory logic, no I/O.
 *
 * <ul>
 *   <li>{@link io.mergesink.core.index.KeyIndex}: the index; exact (full keys are compared, never
 *       only hashes), compact (≤ 48 heap bytes per single BIGINT key, bench/README.md), keeps all
 *       locations of a key that occurs in several live rows.
 *   <li>{@link io.mergesink.core.index.RowLocation}: a location packed into one {@code long}.
 *   <li>{@link io.mergesink.core.index.FileRegistry}: data file path ↔ small int id.
 * </ul>
 *
 * Nothing here is thread-safe: an index belongs to one writer thread.
 */
package io.mergesink.core.index;
