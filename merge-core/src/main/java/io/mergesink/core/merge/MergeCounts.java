package io.mergesink.core.merge;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a merge wrote, for commit results, logs and the {@code operationMetrics} of the commit.
 *
 * @param rowsWritten rows in new data files (upserts plus rows copied by rewrites)
 * @param rowsDeleted live rows marked deleted or dropped by rewrites
 * @param filesAdded new data files
 * @param filesRemoved data files removed (fully deleted or rewritten)
 * @param deletionVectorsUpdated files whose deletion vector changed
 * @param bytesWritten bytes of new data and DV files
 */
public record MergeCounts(long rowsWritten, long rowsDeleted, int filesAdded, int filesRemoved, int deletionVectorsUpdated, long bytesWritten) {
  public static final MergeCounts NONE = new MergeCounts(0, 0, 0, 0, 0, 0);

  public Map<String, String> asOperationMetrics() {
    Map<String, String> metrics = new LinkedHashMap<>();
    metrics.put("numOutputRows", Long.toString(rowsWritten));
    metrics.put("numDeletedRows", Long.toString(rowsDeleted));
    metrics.put("numAddedFiles", Integer.toString(filesAdded));
    metrics.put("numRemovedFiles", Integer.toString(filesRemoved));
    metrics.put("numDeletionVectorsUpdated", Integer.toString(deletionVectorsUpdated));
    metrics.put("numAddedBytes", Long.toString(bytesWritten));
    return metrics;
  }
}
