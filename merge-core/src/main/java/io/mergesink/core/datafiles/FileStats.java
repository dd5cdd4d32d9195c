package io.mergesink.core.datafiles;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Edits of a file's {@code stats} JSON. */
public final class FileStats {
  /** Exact decimals: bounds such as 12345678901234567890.0123456789 must not pass through a double. */
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
      .build();
  private static final String TIGHT_BOUNDS = "tightBounds";

  private FileStats() {}

  /**
   * The stats of a file that has a deletion vector: min/max still bound the remaining rows but may
   * no longer be reached, which PROTOCOL.md ("Per-file Statistics") says with {@code tightBounds=false}.
   */
  public static String withLooseBounds(String stats) {
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
