package io.mergesink.ingest.buffer;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.decode.ChangeEvent;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Approximate heap bytes of in-memory values, for {@code buffer.max.bytes}. Figures are rough
 * 64-bit JVM sizes with compressed references; they only need to grow with the data.
 */
final class SizeEstimator {
  /**
   * A buffered change beyond its key's and row's values: its map entry (with the table's slack),
   * the event record, the key and value row objects. Calibrated with the bench's {@code memory}
   * suite (Debezium events decoded from JSON), where 96 left the estimate a quarter below the heap.
   */
  static final long CHANGE_OVERHEAD_BYTES = 224;
  private static final long REFERENCE_BYTES = 8;
  private static final long BOXED_BYTES = 16;
  private static final long STRING_BYTES = 40;
  private static final long ARRAY_HEADER_BYTES = 16;
  private static final long BIG_DECIMAL_BYTES = 64;
  private static final long COLLECTION_BYTES = 48;
  private static final long MAP_ENTRY_BYTES = 32;

  private SizeEstimator() {}

  /** A buffered change: its overhead, key and row. */
  static long changeBytes(ChangeEvent event) {
    return CHANGE_OVERHEAD_BYTES + estimate(event.key()) + estimate(event.value());
  }

  static long estimate(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof Row row) {
      long size = ARRAY_HEADER_BYTES + REFERENCE_BYTES * row.size();
      for (int i = 0; i < row.size(); i++) {
        size += estimate(row.get(i));
      }
      return size;
    }
    if (value instanceof String text) {
      return STRING_BYTES + text.length();
    }
    if (value instanceof byte[] bytes) {
      return ARRAY_HEADER_BYTES + bytes.length;
    }
    if (value instanceof BigDecimal) {
      return BIG_DECIMAL_BYTES;
    }
    if (value instanceof List<?> list) {
      long size = COLLECTION_BYTES + REFERENCE_BYTES * list.size();
      for (Object element : list) {
        size += estimate(element);
      }
      return size;
    }
    if (value instanceof Map<?, ?> map) {
      long size = COLLECTION_BYTES;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        size += MAP_ENTRY_BYTES + estimate(entry.getKey()) + estimate(entry.getValue());
      }
      return size;
    }
    return BOXED_BYTES;
  }
}
