package io.mergesink.core.log;

import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code remove} action (PROTOCOL.md, "Add File and Remove File"): the logical file
 * ({@code path}, {@code deletionVector}) is no longer live. After reconciliation it stays as a
 * tombstone until vacuum's retention passes.
 *
 * @param path URI-encoded path as in the log
 * @param deletionTimestamp milliseconds since the epoch, or null
 * @param extendedFileMetadata whether partitionValues, size and tags are present
 * @param baseRowId the removed file's row tracking base row id, or null
 * @param defaultRowCommitVersion the removed file's row tracking commit version, or null
 */
public record RemoveFile(
    String path,
    Long deletionTimestamp,
    boolean dataChange,
    boolean extendedFileMetadata,
    Map<String, String> partitionValues,
    Long size,
    Map<String, String> tags,
    DeletionVectorDescriptor deletionVector,
    String stats,
    Long baseRowId,
    Long defaultRowCommitVersion) implements Action {

  public RemoveFile {
    Objects.requireNonNull(path, "path");
    partitionValues = Copies.map(partitionValues);
    tags = Copies.map(tags);
  }

  /** The remove of a file without row tracking fields. */
  public RemoveFile(String path, Long deletionTimestamp, boolean dataChange, boolean extendedFileMetadata,
      Map<String, String> partitionValues, Long size, Map<String, String> tags, DeletionVectorDescriptor deletionVector, String stats) {
    this(path, deletionTimestamp, dataChange, extendedFileMetadata, partitionValues, size, tags, deletionVector, stats, null, null);
  }

  /** The path with %xx escapes decoded. */
  public String decodedPath() {
    return LogPaths.decode(path);
  }

  /** The key of the logical file (path and DV id) this remove cancels. */
  public String logicalKey() {
    return LogicalFileKey.of(path, deletionVector);
  }
}
