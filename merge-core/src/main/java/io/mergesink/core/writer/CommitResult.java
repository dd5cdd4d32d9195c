package io.mergesink.core.writer;

import io.mergesink.core.merge.MergeCounts;


/**
 * A committed change set.
 *
 * @param version the table version the commit became
 * @param counts rows and files written, deleted and marked
 * @param attempts commit attempts (1 when no concurrent writer interfered)
 * @param replans times the plan was redone because a concurrent commit touched its files
 * @param durationNanos from the start of planning to the published commit (checkpoint excluded)
 * @param checkpointWritten whether a checkpoint was written after the commit
 */
public record CommitResult(long version, MergeCounts counts, int attempts, int replans, long durationNanos, boolean checkpointWritten) {}
