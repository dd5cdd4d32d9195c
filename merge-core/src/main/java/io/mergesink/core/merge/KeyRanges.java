package io.mergesink.core.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Which files may hold rows of some keys, by the files' per-column statistics ({@code minValues},
 * {@code maxValues}; PROTOCOL.md "Per-file Statistics"): a file whose range of an integral key
 * column holds none of the keys' values holds none of the keys. Other key columns (strings, whose
 * bounds may be truncated; partition columns) and files without statistics prune nothing.
 */
public final class KeyRanges {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final List<Column> columns;

  private KeyRanges(List<Column> columns) {
    this.columns = columns;
  }

  /** The ranges of {@code keys} over the key columns at {@code keyOrdinals} of {@code reader}'s rows. */
  public static KeyRanges of(LogicalFileReader reader, int[] keyOrdinals, Collection<Row> keys) {
    List<Column> columns = new ArrayList<>();
    for (int k = 0; k < keyOrdinals.length; k++) {
      StructField field = reader.schema().field(keyOrdinals[k]);
      StructField stored = reader.dataField(keyOrdinals[k]);
      if (stored == null || !integral(field)) {
        continue;
      }
      TreeSet<Long> values = new TreeSet<>();
      for (Row key : keys) {
        values.add(((Number) key.get(k)).longValue());
      }
      columns.add(new Column(stored.name(), values));
    }
    return new KeyRanges(columns);
  }

  /** Whether {@code file} may hold a row of one of the keys. */
  public boolean mayHold(AddFile file) {
    if (columns.isEmpty() || file.stats() == null) {
      return true;
    }
    JsonNode stats;
    try {
      stats = JSON.readTree(file.stats());
    } catch (IOException e) {
      return true;
    }
    for (Column column : columns) {
      JsonNode min = stats.path("minValues").path(column.statsName());
      JsonNode max = stats.path("maxValues").path(column.statsName());
      if (min.isIntegralNumber() && max.isIntegralNumber()) {
        Long first = column.values().ceiling(min.longValue());
        if (first == null || first > max.longValue()) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean integral(StructField field) {
    return field.type() == PrimitiveType.LONG || field.type() == PrimitiveType.INTEGER || field.type() == PrimitiveType.SHORT
        || field.type() == PrimitiveType.BYTE;
  }

  /** A prunable key column: its name in the statistics (the physical name) and the keys' values of it. */
  private record Column(String statsName, TreeSet<Long> values) {}
}
