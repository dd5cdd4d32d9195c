package io.mergesink.core.maintenance;

import io.mergesink.core.log.AddFile;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Files rewritten together into new files. All share partition values and tags, which the new
 * files inherit: the owners of an output are then the union of its inputs' owners, as the
 * ownership rule asks (docs/design.md, "File ownership"), so a writer whose key-index scope held
 * the inputs holds the outputs too.
 *
 * @param partitionValues the partition values of every input (empty for unpartitioned tables; a null value is a null partition)
 * @param tags the tags of every input (empty when untagged)
 * @param files the inputs, as live in the snapshot the bin was planned on
 * @param estimatedLiveBytes input bytes scaled by each file's live-row fraction
 */
public record CompactionBin(Map<String, String> partitionValues, Map<String, String> tags, List<AddFile> files, long estimatedLiveBytes) {
  public CompactionBin {
    partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
    tags = Map.copyOf(tags);
    files = List.copyOf(files);
  }

  /** Bytes of the input files. */
  public long inputBytes() {
    return files.stream().mapToLong(AddFile::size).sum();
  }

  /** Rows the inputs' DVs mark deleted; the rewrite drops them. */
  public long deletedRows() {
    return files.stream().mapToLong(AddFile::deletedRecords).sum();
  }
}
