package io.mergesink.core.merge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Edits of a file's {@code stats} JSON. */
final class FileStats {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TIGHT_BOUNDS = "tightBounds";

  private FileStats() {}

  /**
   * The stats of a file that has a deletion vector: min/max still bound the remaining rows but may
   * no longer be reached, which PROTOCOL.md ("Per-file Statistics") says with {@code tightBounds=false}.
   */
  static String withLooseBounds(String stats) {
    if (stats == null) {
      return null;
    }
    try {
      ObjectNode node = (ObjectNode) JSON.readTree(stats);
      node.put(TIGHT_BOUNDS, false);
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException | ClassCastException e) {
      return null;
    }
  }
}
