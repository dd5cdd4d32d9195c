package io.mergesink.core.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mergesink.core.storage.Storage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The content of {@code _delta_log/_last_checkpoint} (PROTOCOL.md, "Last Checkpoint File"): a hint
 * to the latest checkpoint. Readers must not trust it blindly: it may be missing, stale or torn.
 *
 * @param version the checkpoint's table version
 * @param size the number of actions in the checkpoint
 * @param parts the number of files of a multi-part checkpoint, null for a single file
 * @param numOfAddFiles the number of {@code add} actions, or null
 * @param v2CheckpointFile the file name (in {@code _delta_log}) of the V2 checkpoint the hint points
 *     to ({@code v2Checkpoint.path}), or null for a classic checkpoint; read, not written
 */
public record LastCheckpoint(long version, long size, Integer parts, Long numOfAddFiles, String v2CheckpointFile) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** A hint to a classic checkpoint. */
  public LastCheckpoint(long version, long size, Integer parts, Long numOfAddFiles) {
    this(version, size, parts, numOfAddFiles, null);
  }

  /** The JSON MergeSink writes: {@code {"version":V,"size":N,"numOfAddFiles":A}}. */
  public byte[] toJson() {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("version", version);
    node.put("size", size);
    if (parts != null) {
      node.put("parts", parts);
    }
    if (numOfAddFiles != null) {
      node.put("numOfAddFiles", numOfAddFiles);
    }
    return node.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Parses the file's content.
   *
   * @return empty when the content is not JSON or lacks a {@code version} (e.g. a torn write)
   */
  public static Optional<LastCheckpoint> parse(byte[] content) {
    JsonNode node;
    try {
      node = MAPPER.readTree(content);
    } catch (IOException e) {
      return Optional.empty();
    }
    if (node == null || !node.path("version").canConvertToLong()) {
      return Optional.empty();
    }
    JsonNode parts = node.get("parts");
    JsonNode adds = node.get("numOfAddFiles");
    JsonNode v2Path = node.path("v2Checkpoint").get("path");
    return Optional.of(new LastCheckpoint(
        node.get("version").asLong(),
        node.path("size").asLong(0),
        parts == null || parts.isNull() ? null : parts.asInt(),
        adds == null || adds.isNull() ? null : adds.asLong(),
        v2Path == null || !v2Path.isTextual() ? null : v2Path.asText()));
  }

  /**
   * Reads the table's {@code _last_checkpoint}.
   *
   * @return empty when the file is missing or unparseable
   * @throws IOException when the file exists but cannot be read
   */
  public static Optional<LastCheckpoint> read(Storage storage, String root) throws IOException {
    String path = LogPaths.lastCheckpointFile(root);
    byte[] content;
    try {
      content = storage.readAll(path);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
    return parse(content);
  }

  /** Overwrites the table's {@code _last_checkpoint}. */
  public void write(Storage storage, String root) throws IOException {
    try (var out = storage.create(LogPaths.lastCheckpointFile(root))) {
      out.write(toJson());
    }
  }
}
