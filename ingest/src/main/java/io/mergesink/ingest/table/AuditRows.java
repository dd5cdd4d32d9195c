package io.mergesink.ingest.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads back the row an append table holds for one Kafka record, found by its audit columns; only
 * the files whose statistics allow its partition and offset are read.
 */
final class AuditRows {
  private static final ObjectMapper JSON = new ObjectMapper();
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
    LogicalFileReader reader;
    try {
      reader = sink.reader(columns);
    } catch (IllegalArgumentException e) {
      return false; // the table has no column of that key: none of its rows is a delete of it
    }
    try (TableScan rows = sink.scan(reader, file -> mayHold(file, reader.dataField(PARTITION), partition)
        && mayHold(file, reader.dataField(OFFSET), offset))) {
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

  /** Whether {@code file}'s statistics of {@code column} (null: a partition column) allow {@code value}. */
  private static boolean mayHold(AddFile file, StructField column, long value) {
    if (column == null || file.stats() == null) {
      return true;
    }
    try {
      JsonNode stats = JSON.readTree(file.stats());
      JsonNode min = stats.path("minValues").path(column.name());
      JsonNode max = stats.path("maxValues").path(column.name());
      return !min.isIntegralNumber() || !max.isIntegralNumber() || (min.longValue() <= value && value <= max.longValue());
    } catch (IOException e) {
      return true;
    }
  }
}
