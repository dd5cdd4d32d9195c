package io.mergesink.core.maintenance;

import io.mergesink.core.storage.Storage;
import java.util.List;

/**
 * The files a vacuum deletes (or deleted).
 *
 * @param snapshotVersion the version whose live files and tombstones were kept
 * @param cutoffMillis files modified at or after this instant, and tombstones removed after it, were kept
 * @param referencedFiles data and DV files kept because a retained version references them
 * @param files the unreferenced files older than the cut-off, sorted by relative path
 *     ({@link Storage.FileInfo#name()} is the path relative to the table root)
 */
public record VacuumPlan(long snapshotVersion, long cutoffMillis, int referencedFiles, List<Storage.FileInfo> files) {
  public VacuumPlan {
    files = List.copyOf(files);
  }

  public long bytes() {
    return files.stream().mapToLong(Storage.FileInfo::size).sum();
  }
}
