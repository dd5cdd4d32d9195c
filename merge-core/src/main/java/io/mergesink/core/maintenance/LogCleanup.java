package io.mergesink.core.maintenance;

import io.mergesink.core.storage.Storage;
import java.util.List;
import java.util.OptionalLong;

/**
 * What a log cleanup deletes (or deleted).
 *
 * @param keptFromVersion the checkpoint every retained version is rebuilt from; files of lower
 *     versions are the expired ones; empty when no checkpoint is old enough (nothing expires)
 * @param expiredFiles the log files of versions below {@code keptFromVersion}
 */
public record LogCleanup(OptionalLong keptFromVersion, List<Storage.FileInfo> expiredFiles) {
  public LogCleanup {
    expiredFiles = List.copyOf(expiredFiles);
  }
}
