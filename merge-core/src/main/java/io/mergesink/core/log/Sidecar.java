package io.mergesink.core.log;

import java.util.Map;
import java.util.Objects;

/**
 * The {@code sidecar} action of a V2 checkpoint (PROTOCOL.md, "Sidecar File Information"): a
 * Parquet file under {@code _delta_log/_sidecars/} holding some of the checkpoint's {@code add} and
 * {@code remove} actions. Only checkpoints hold it; it is no table state, so log replay ignores it.
 *
 * @param path URI-encoded; usually just the file name within {@code _delta_log/_sidecars/}
 * @param sizeInBytes the file's size
 * @param modificationTime milliseconds since the epoch
 * @param tags free-form tags or null
 */
public record Sidecar(String path, long sizeInBytes, long modificationTime, Map<String, String> tags) implements Action {
  public Sidecar {
    Objects.requireNonNull(path, "path");
    tags = Copies.map(tags);
  }
}
