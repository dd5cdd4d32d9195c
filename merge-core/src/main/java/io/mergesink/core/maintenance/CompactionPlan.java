package io.mergesink.core.maintenance;

import java.util.List;

/**
 * The bins one compaction run rewrites, in order, within the run's budget.
 *
 * @param snapshotVersion the version the plan was made on
 * @param bins bins to rewrite; empty when nothing needs compaction
 * @param deferredBins bins that needed compaction but did not fit the budget (a later run takes them)
 */
public record CompactionPlan(long snapshotVersion, List<CompactionBin> bins, int deferredBins) {
  public CompactionPlan {
    bins = List.copyOf(bins);
  }

  public boolean isEmpty() {
    return bins.isEmpty();
  }

  public int inputFiles() {
    return bins.stream().mapToInt(bin -> bin.files().size()).sum();
  }

  public long inputBytes() {
    return bins.stream().mapToLong(CompactionBin::inputBytes).sum();
  }
}
