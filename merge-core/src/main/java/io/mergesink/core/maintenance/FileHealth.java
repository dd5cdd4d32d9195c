package io.mergesink.core.maintenance;

import io.mergesink.core.log.AddFile;

/** What the log says about one data file's rows, for compaction planning and {@code describe}. */
public final class FileHealth {
  private FileHealth() {}

  /**
   * The fraction of the file's physical rows its DV marks deleted: 0 without a DV, and 0 when the
   * stats do not give {@code numRecords} (the file is then never taken for DV-dense).
   */
  public static double deletedFraction(AddFile file) {
    long records = file.numRecords();
    if (file.deletionVector() == null || records <= 0) {
      return 0;
    }
    return (double) file.deletedRecords() / records;
  }

  /** Live rows from the stats (physical rows minus deleted rows), or {@link AddFile#UNKNOWN_RECORDS}. */
  public static long liveRows(AddFile file) {
    long records = file.numRecords();
    return records == AddFile.UNKNOWN_RECORDS ? AddFile.UNKNOWN_RECORDS : records - file.deletedRecords();
  }

  /** The file's size scaled by its live fraction: about what its live rows take once rewritten. */
  public static long estimatedLiveBytes(AddFile file) {
    return Math.round(file.size() * (1 - deletedFraction(file)));
  }
}
