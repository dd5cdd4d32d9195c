package io.mergesink.core.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code add} action (PROTOCOL.md, "Add File and Remove File"): a live data file, optionally
 * with a deletion vector marking some of its rows deleted.
 *
 * @param path the file as a URI-encoded path, relative to the table root or absolute, exactly as in
 *     the log; {@link #decodedPath()} gives the file-system form
 * @param partitionValues partition column → serialized value (null value for a null partition)
 * @param size file size in bytes
 * @param modificationTime milliseconds since the epoch
 * @param stats the statistics JSON ({@code numRecords}, {@code minValues}, {@code maxValues},
 *     {@code nullCount}, {@code tightBounds}) or null
 * @param tags free-form tags or null
 * @param deletionVector the file's DV or null
 * @param baseRowId row tracking's base row id or null
 * @param defaultRowCommitVersion row tracking's default commit version or null
 * @param clusteringProvider the clustering implementation that clustered the file (PROTOCOL.md,
 *     "Clustered Table"), or null for an unclustered file
 */
public record AddFile(
    String path,
    Map<String, String> partitionValues,
    long size,
    long modificationTime,
    boolean dataChange,
    String stats,
    Map<String, String> tags,
    DeletionVectorDescriptor deletionVector,
    Long baseRowId,
    Long defaultRowCommitVersion,
    String clusteringProvider) implements Action {

  /** {@link #numRecords()} when the stats do not say. */
  public static final long UNKNOWN_RECORDS = -1;
  private static final JsonFactory JSON = new JsonFactory();
  private static final String NUM_RECORDS = "numRecords";

  public AddFile {
    Objects.requireNonNull(path, "path");
    partitionValues = Copies.mapOrEmpty(partitionValues);
    tags = Copies.map(tags);
  }

  /** A file no clustering implementation clustered. */
  public AddFile(String path, Map<String, String> partitionValues, long size, long modificationTime, boolean dataChange, String stats,
      Map<String, String> tags, DeletionVectorDescriptor deletionVector, Long baseRowId, Long defaultRowCommitVersion) {
    this(path, partitionValues, size, modificationTime, dataChange, stats, tags, deletionVector, baseRowId, defaultRowCommitVersion,
        null);
  }

  /** The path with %xx escapes decoded (still relative when the log path is relative). */
  public String decodedPath() {
    return LogPaths.decode(path);
  }

  /**
   * The physical row count from {@code stats.numRecords} (rows deleted by the DV included), or
   * {@link #UNKNOWN_RECORDS} when the stats are absent, unparseable or silent.
   */
  public long numRecords() {
    if (stats == null) {
      return UNKNOWN_RECORDS;
    }
    try (JsonParser parser = JSON.createParser(stats)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return UNKNOWN_RECORDS;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (NUM_RECORDS.equals(field) && value == JsonToken.VALUE_NUMBER_INT) {
          return parser.getLongValue();
        }
        parser.skipChildren();
      }
      return UNKNOWN_RECORDS;
    } catch (IOException e) {
      return UNKNOWN_RECORDS;
    }
  }

  /** The number of rows deleted by the DV (0 without one). */
  public long deletedRecords() {
    return deletionVector == null ? 0 : deletionVector.cardinality();
  }

  /**
   * This file with another (usually a larger) DV and stats (with {@code tightBounds} false); its
   * row ids, row commit version and clustering provider stay (PROTOCOL.md, "Writer Requirements for
   * Row Tracking" and "for Clustered Table").
   */
  public AddFile withDeletionVector(DeletionVectorDescriptor dv, String newStats) {
    return new AddFile(path, partitionValues, size, modificationTime, true, newStats, tags, dv,
        baseRowId, defaultRowCommitVersion, clusteringProvider);
  }

  /** This file with other statistics JSON (or none). */
  public AddFile withStats(String newStats) {
    return new AddFile(path, partitionValues, size, modificationTime, dataChange, newStats, tags, deletionVector,
        baseRowId, defaultRowCommitVersion, clusteringProvider);
  }

  /** This file with the given row tracking fields. */
  public AddFile withRowTracking(Long newBaseRowId, Long newDefaultRowCommitVersion) {
    return new AddFile(path, partitionValues, size, modificationTime, dataChange, stats, tags, deletionVector,
        newBaseRowId, newDefaultRowCommitVersion, clusteringProvider);
  }

  /** The {@code remove} of exactly this logical file (path and DV), with extended file metadata and its row tracking fields. */
  public RemoveFile toRemove(long deletionTimestamp, boolean dataChange) {
    return new RemoveFile(path, deletionTimestamp, dataChange, true, partitionValues, size, tags,
        deletionVector, stats, baseRowId, defaultRowCommitVersion);
  }

  /** The key of the logical file (path and DV id) that a {@code remove} must match. */
  public String logicalKey() {
    return LogicalFileKey.of(path, deletionVector);
  }
}
