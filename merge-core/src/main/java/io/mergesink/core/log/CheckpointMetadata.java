package io.mergesink.core.log;

import java.util.Map;

/**
 * The {@code checkpointMetadata} action every V2 checkpoint holds once (PROTOCOL.md, "Checkpoint
 * Metadata"): the checkpoint's table version. No table state, so log replay ignores it.
 *
 * @param tags free-form tags or null
 */
public record CheckpointMetadata(long version, Map<String, String> tags) implements Action {
  public CheckpointMetadata {
    tags = Copies.map(tags);
  }
}
