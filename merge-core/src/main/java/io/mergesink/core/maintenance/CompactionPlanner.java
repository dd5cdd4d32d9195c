package io.mergesink.core.maintenance;

import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses what a compaction run rewrites (pure: reads only the snapshot).
 *
 * <p>Files in scope are grouped by (partition values, tags); files of different groups are never
 * mixed, so an output has exactly the owners of each of its inputs (docs/design.md, "File ownership"). In a group, a file is a candidate when its deleted fraction exceeds
 * {@link CompactionOptions#deletedRatio()} (it is always taken), or when it is smaller than the
 * target and the group holds at least {@link CompactionOptions#minSmallFiles()} small files.
 * Candidates are packed first-fit-decreasing by estimated live bytes into bins of at most the
 * target size. A bin holding a single file that is not DV-dense is dropped (rewriting it would
 * change nothing). Bins with DV-dense files come first, then the fullest; bins are taken while the
 * run's byte and file budgets allow (the first bin always).
 */
public final class CompactionPlanner {
  private final CompactionOptions options;

  public CompactionPlanner(CompactionOptions options) {
    this.options = options;
  }

  public CompactionPlan plan(Snapshot snapshot) {
    Map<GroupKey, List<AddFile>> groups = new LinkedHashMap<>();
    for (AddFile file : snapshot.files().values()) {
      if (options.scope().test(file)) {
        groups.computeIfAbsent(new GroupKey(file.partitionValues(), file.tags() == null ? Map.of() : file.tags()),
            key -> new ArrayList<>()).add(file);
      }
    }
    List<CompactionBin> bins = new ArrayList<>();
    groups.forEach((key, files) -> bins.addAll(binsOf(key, files)));
    bins.sort(Comparator.comparing((CompactionBin bin) -> bin.deletedRows() == 0)
        .thenComparing(bin -> -bin.files().size())
        .thenComparing(bin -> bin.files().get(0).path()));
    List<CompactionBin> taken = new ArrayList<>();
    long bytes = 0;
    int files = 0;
    for (CompactionBin bin : bins) {
      boolean fits = bytes + bin.inputBytes() <= options.maxBytesPerRun() && files + bin.files().size() <= options.maxFilesPerRun();
      if (taken.isEmpty() || fits) {
        taken.add(bin);
        bytes += bin.inputBytes();
        files += bin.files().size();
      }
    }
    return new CompactionPlan(snapshot.version(), taken, bins.size() - taken.size());
  }

  private List<CompactionBin> binsOf(GroupKey key, List<AddFile> files) {
    List<AddFile> small = new ArrayList<>();
    List<AddFile> candidates = new ArrayList<>();
    for (AddFile file : files) {
      if (isDense(file)) {
        candidates.add(file);
      } else if (file.size() < options.targetFileSizeBytes()) {
        small.add(file);
      }
    }
    if (small.size() >= options.minSmallFiles()) {
      candidates.addAll(small);
    }
    candidates.sort(Comparator.comparingLong(FileHealth::estimatedLiveBytes).reversed().thenComparing(AddFile::path));
    List<List<AddFile>> packed = new ArrayList<>();
    List<Long> packedBytes = new ArrayList<>();
    for (AddFile file : candidates) {
      long bytes = FileHealth.estimatedLiveBytes(file);
      int bin = 0;
      while (bin < packed.size() && packedBytes.get(bin) + bytes > options.targetFileSizeBytes()) {
        bin++;
      }
      if (bin == packed.size()) {
        packed.add(new ArrayList<>());
        packedBytes.add(0L);
      }
      packed.get(bin).add(file);
      packedBytes.set(bin, packedBytes.get(bin) + bytes);
    }
    List<CompactionBin> bins = new ArrayList<>();
    for (int i = 0; i < packed.size(); i++) {
      List<AddFile> binFiles = packed.get(i);
      if (binFiles.size() > 1 || isDense(binFiles.get(0))) {
        bins.add(new CompactionBin(key.partitionValues(), key.tags(), binFiles, packedBytes.get(i)));
      }
    }
    return bins;
  }

  private boolean isDense(AddFile file) {
    return FileHealth.deletedFraction(file) > options.deletedRatio();
  }

  private record GroupKey(Map<String, String> partitionValues, Map<String, String> tags) {}
}
