package io.mergesink.core.parquet;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.List;

/**
 * Statistics of one column of a file being written, in the shape of Delta's per-file statistics
 * (PROTOCOL.md, "Per-file Statistics"): a null count for every column that is not a struct, a
 * nested object for struct columns, and min/max only where they are exact and Delta readers use
 * them (see {@link BoundedColumnStats}).
 */
sealed interface ColumnStats permits ColumnStats.NullCountOnly, ColumnStats.Struct, BoundedColumnStats {

  /** Accounts for one value of this column (null included). */
  void add(Object value);

  /** Puts this column's lower bound under {@code name}, when it has one. */
  void putMin(ObjectNode target, String name);

  /** Puts this column's upper bound under {@code name}, when it has one. */
  void putMax(ObjectNode target, String name);

  /** Puts this column's null count (an object of counts for a struct) under {@code name}. */
  void putNullCount(ObjectNode target, String name);

  /** Empty statistics for a column of {@code type}. */
  static ColumnStats forType(DataType type) {
    if (type instanceof StructType struct) {
      return new Struct(struct);
    }
    if (type instanceof DecimalType) {
      return BoundedColumnStats.forDecimal();
    }
    if (type instanceof PrimitiveType primitive) {
      return switch (primitive) {
        case BOOLEAN, BINARY -> new NullCountOnly();
        default -> BoundedColumnStats.forPrimitive(primitive);
      };
    }
    return new NullCountOnly(); // arrays and maps: Spark counts nulls of the column itself
  }

  /** Columns without bounds: boolean, binary, arrays, maps. */
  final class NullCountOnly implements ColumnStats {
    private long nullCount;

    @Override
    public void add(Object value) {
      if (value == null) {
        nullCount++;
      }
    }

    @Override
    public void putMin(ObjectNode target, String name) {}

    @Override
    public void putMax(ObjectNode target, String name) {}

    @Override
    public void putNullCount(ObjectNode target, String name) {
      target.put(name, nullCount);
    }
  }

  /**
   * A struct column: one statistics object per field. A null struct counts as null in every
   * nested column, as in Spark. An empty bound object is left out.
   */
  final class Struct implements ColumnStats {
    private final List<String> names;
    private final List<ColumnStats> fields;

    Struct(StructType type) {
      this.names = type.fieldNames();
      this.fields = new ArrayList<>(type.size());
      for (int i = 0; i < type.size(); i++) {
        fields.add(forType(type.field(i).type()));
      }
    }

    @Override
    public void add(Object value) {
      Row row = (Row) value;
      for (int i = 0; i < fields.size(); i++) {
        fields.get(i).add(row == null ? null : row.get(i));
      }
    }

    /** Puts the fields' bounds directly into {@code target} (for the top-level row). */
    void putFieldMins(ObjectNode target) {
      for (int i = 0; i < fields.size(); i++) {
        fields.get(i).putMin(target, names.get(i));
      }
    }

    void putFieldMaxes(ObjectNode target) {
      for (int i = 0; i < fields.size(); i++) {
        fields.get(i).putMax(target, names.get(i));
      }
    }

    void putFieldNullCounts(ObjectNode target) {
      for (int i = 0; i < fields.size(); i++) {
        fields.get(i).putNullCount(target, names.get(i));
      }
    }

    @Override
    public void putMin(ObjectNode target, String name) {
      ObjectNode nested = target.objectNode();
      putFieldMins(nested);
      if (!nested.isEmpty()) {
        target.set(name, nested);
      }
    }

    @Override
    public void putMax(ObjectNode target, String name) {
      ObjectNode nested = target.objectNode();
      putFieldMaxes(nested);
      if (!nested.isEmpty()) {
        target.set(name, nested);
      }
    }

    @Override
    public void putNullCount(ObjectNode target, String name) {
      ObjectNode nested = target.objectNode();
      putFieldNullCounts(nested);
      target.set(name, nested);
    }
  }
}
