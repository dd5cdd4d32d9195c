package io.mergesink.core.maintenance;

import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.RemoveFile;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Deletes data and DV files that no version within the retention period references (PROTOCOL.md,
 * "Vacuum"), including orphans of crashed writers.
 *
 * <p>Kept: every file of the snapshot's live set and its DV file; every file and DV of a tombstone
 * removed after the cut-off (or without a deletion timestamp); every file modified at or after
 * the cut-off, so the new files of an in-flight commit are never touched; everything under a
 * directory or with a name starting with {@code _} or {@code .} ({@code _delta_log}, Hadoop's
 * sidecars; Hadoop deletes a file's {@code .crc} with it), except the change data files under
 * {@code _change_data/}: no snapshot references them, so they go once older than the retention, as
 * Delta's VACUUM does (the change feed of older versions goes with them). Files referenced by absolute paths outside
 * the table are never considered.
 *
 * <p>Plan on the latest snapshot: a file removed by a commit after it was live in it, so it stays.
 */
public final class Vacuum {
  private static final String CHANGE_DATA_DIRECTORY = "_change_data/";
  private static final Pattern HAS_SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");

  private final Storage storage;

  public Vacuum(Storage storage) {
    this.storage = storage;
  }

  /**
   * The files a vacuum of {@code snapshot} would delete at {@code nowMillis}; nothing is deleted.
   *
   * @param retention tombstones and files younger than this are kept
   * @throws IllegalArgumentException when the retention is negative
   * @throws io.mergesink.core.protocol.UnsupportedTableException when MergeSink cannot write the table:
   *     vacuum deletes files, so it checks the writer protocol of every table (PROTOCOL.md, "VACUUM
   *     Protocol Check")
   */
  public VacuumPlan plan(Snapshot snapshot, Duration retention, long nowMillis) throws IOException {
    ProtocolSupport.checkWritable(snapshot.tableRoot(), snapshot.protocol(), snapshot.metadata());
    if (retention.isNegative()) {
      throw new IllegalArgumentException("vacuum retention must not be negative, found " + retention);
    }
    String root = snapshot.tableRoot();
    long cutoff = nowMillis - retention.toMillis();
    Set<String> referenced = new HashSet<>();
    for (AddFile file : snapshot.files().values()) {
      reference(referenced, root, file.path(), file.deletionVector());
    }
    for (RemoveFile tombstone : snapshot.tombstones()) {
      if (tombstone.deletionTimestamp() == null || tombstone.deletionTimestamp() > cutoff) {
        reference(referenced, root, tombstone.path(), tombstone.deletionVector());
      }
    }
    List<Storage.FileInfo> unreferenced = new ArrayList<>();
    for (Storage.FileInfo file : storage.listRecursive(root)) {
      if (!isHidden(file.name()) && !referenced.contains(file.name()) && file.modificationTime() < cutoff) {
        unreferenced.add(file);
      }
    }
    return new VacuumPlan(snapshot.version(), cutoff, referenced.size(), unreferenced);
  }

  /**
   * Deletes the files of {@code plan}, which must be fresh: plan and execute in one go.
   *
   * @return the number of files deleted (a file already gone is not counted)
   * @throws IOException when a deletion fails; files deleted before stay deleted
   */
  public int execute(VacuumPlan plan) throws IOException {
    int deleted = 0;
    for (Storage.FileInfo file : plan.files()) {
      if (storage.delete(file.path())) {
        deleted++;
      }
    }
    return deleted;
  }

  private static void reference(Set<String> referenced, String root, String logPath, DeletionVectorDescriptor dv) {
    relative(root, LogPaths.resolve(root, logPath)).ifPresent(referenced::add);
    if (dv != null && !dv.isInline()) {
      relative(root, DeletionVectorStore.absolutePath(root, dv)).ifPresent(referenced::add);
    }
  }

  /** The path relative to the table root, when it lies under it (schemes and authorities ignored). */
  static Optional<String> relative(String root, String path) {
    String base = withoutScheme(root);
    base = base.endsWith("/") ? base : base + "/";
    String plain = withoutScheme(path);
    return plain.startsWith(base) ? Optional.of(plain.substring(base.length())) : Optional.empty();
  }

  private static String withoutScheme(String path) {
    if (!HAS_SCHEME.matcher(path).matches()) {
      return path;
    }
    String rest = path.substring(path.indexOf(':') + 1);
    if (rest.startsWith("//")) {
      int slash = rest.indexOf('/', 2);
      return slash < 0 ? "/" : rest.substring(slash);
    }
    return rest;
  }

  private static boolean isHidden(String relativePath) {
    if (relativePath.startsWith(CHANGE_DATA_DIRECTORY)) {
      return false;
    }
    for (String segment : relativePath.split("/")) {
      if (segment.startsWith("_") || segment.startsWith(".")) {
        return true;
      }
    }
    return false;
  }
}
