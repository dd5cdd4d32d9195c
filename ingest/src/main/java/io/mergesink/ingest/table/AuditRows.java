package io.mergesink.ingest.table;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.format.RowScan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads back the row an append table holds for one Kafka record, found by its audit columns; only
 * the files whose statistics allow its partition and offset are read.
 */
final class AuditRows {
  private static final int TOPIC = 0;
  private static final int PARTITION = 1;
  private static final int OFFSET = 2;
  private static final int OP = 3;
  private static final int KEY = 4;

  private AuditRows() {}

  /**
   * Whether {@code sink}'s table holds, for the record at {@code offset} of {@code topic}'s
   * {@code partition}, the row of a delete of {@code key} (columns {@code keySchema}).
   *
   * @throws IOException reading the table failed
   */
  static boolean isDelete(TableSink sink, String topic, int partition, long offset, StructType keySchema, Row key)
      throws IOException {
    List<String> columns = new ArrayList<>(List.of(AuditColumns.TOPIC, AuditColumns.PARTITION, AuditColumns.OFFSET, AuditColumns.OP));
    columns.addAll(keySchema.fieldNames());
    RowScan rows;
    try {
      rows = sink.scan(columns, Map.of(AuditColumns.PARTITION, (long) partition, AuditColumns.OFFSET, offset));
    } catch (IllegalArgumentException e) {
      return false; // the table has no column of that key: none of its rows is a delete of it
    }
    try (rows) {
      while (rows.hasNext()) {
        Row row = rows.next();
        if (topic.equals(row.get(TOPIC)) && partition == ((Number) row.get(PARTITION)).intValue()
            && offset == ((Number) row.get(OFFSET)).longValue()) {
          return "d".equals(row.get(OP)) && sameKey(row, key);
        }
      }
      return false;
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Whether the key columns of {@code row} hold {@code key}; integers compare by value, since the table may have widened them. */
  private static boolean sameKey(Row row, Row key) {
    for (int i = 0; i < key.size(); i++) {
      Object stored = row.get(KEY + i);
      Object wanted = key.get(i);
      boolean same = isIntegral(stored) && isIntegral(wanted)
          ? ((Number) stored).longValue() == ((Number) wanted).longValue()
          : Objects.equals(stored, wanted);
      if (!same) {
        return false;
      }
    }
    return true;
  }

  private static boolean isIntegral(Object value) {
    return value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte;
  }
}
