package io.mergesink.core.merge;

import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;

/** A staged commit, the key index changes it makes once committed, and what it did in numbers. */
public record PlannedMerge(StagedCommit commit, IndexDelta indexDelta, MergeCounts counts) {}
