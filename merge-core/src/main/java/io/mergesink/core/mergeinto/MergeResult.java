package io.mergesink.core.mergeinto;

import io.mergesink.core.writer.CommitResult;

/** A committed merge: what it decided and how the commit went. */
public record MergeResult(ActionCounts actions, CommitResult commit) {}
