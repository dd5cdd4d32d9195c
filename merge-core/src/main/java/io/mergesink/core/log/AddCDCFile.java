package io.mergesink.core.log;

import java.util.Map;
import java.util.Objects;

/**
 * The {@code cdc} action (PROTOCOL.md, "Add CDC File"): a change data file holding the row-level
 * changes of the commit it is in, under {@code _change_data/}. It changes no table data, so its
 * {@code dataChange} is always false, and it takes no part in reconciliation (snapshots and
 * checkpoints hold no {@code cdc} actions).
 *
 * @param path the file as a URI-encoded path, relative to the table root, exactly as in the log
 * @param partitionValues partition column (physical name) → serialized value, as for {@code add}
 * @param size file size in bytes
 * @param tags free-form tags or null
 */
public record AddCDCFile(String path, Map<String, String> partitionValues, long size, Map<String, String> tags) implements Action {

  public AddCDCFile {
    Objects.requireNonNull(path, "path");
    partitionValues = Copies.mapOrEmpty(partitionValues);
    tags = Copies.map(tags);
  }

  /** The path with %xx escapes decoded. */
  public String decodedPath() {
    return LogPaths.decode(path);
  }
}
