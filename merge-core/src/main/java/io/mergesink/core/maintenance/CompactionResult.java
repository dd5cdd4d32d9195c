package io.mergesink.core.maintenance;

/** How a compaction run ended. */
public sealed interface CompactionResult {

  /** Nothing in scope needed compaction at {@code version}. */
  record NothingToCompact(long version) implements CompactionResult {}

  /**
   * The rewrite is table version {@code version}.
   *
   * @param filesRemoved input files replaced
   * @param filesAdded new files
   * @param rowsWritten live rows copied into the new files
   * @param rowsPurged rows the inputs' DVs marked deleted, now gone for good
   * @param bytesRemoved bytes of the input files
   * @param bytesAdded bytes of the new files
   * @param deferredBins bins left for a later run (budget)
   * @param replans rounds lost to concurrent commits touching the inputs before this one won
   */
  record Compacted(long version, int filesRemoved, int filesAdded, long rowsWritten, long rowsPurged, long bytesRemoved,
      long bytesAdded, int deferredBins, int replans) implements CompactionResult {}

  /**
   * Concurrent commits changed the chosen inputs in every one of {@code attempts} rounds; nothing
   * was committed and the files written were deleted. A later run plans afresh.
   */
  record GaveWay(int attempts, String lastReason) implements CompactionResult {}
}
