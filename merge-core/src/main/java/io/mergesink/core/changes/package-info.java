/**
 * The input of a commit: a change set (upserts, deletes, appends, the txns it lands and the live
 * rows it was decided from), its validation and keying, its realignment to a table schema changed
 * since it was built, and the record of what it read ({@link io.mergesink.core.changes.ReadSet})
 * that a commit checks against newer snapshots.
 */
package io.mergesink.core.changes;
