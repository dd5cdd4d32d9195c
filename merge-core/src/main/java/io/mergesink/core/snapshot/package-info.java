/**
 * Table state at a version: {@link io.mergesink.core.snapshot.Snapshot} (immutable) and
 * {@link io.mergesink.core.snapshot.SnapshotLoader}, which replays the latest checkpoint plus the
 * JSON commits after it, or brings an older snapshot up to date by replaying only newer commits
 * (what optimistic concurrency needs).
 */
package io.mergesink.core.snapshot;
