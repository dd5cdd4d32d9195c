package io.mergesink.core.types;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * Column mapping (PROTOCOL.md, "Column Mapping"): how the columns of a table's schema, its logical
 * columns, are named in data files, partition values and statistics. In mode {@code none} by their
 * names; in modes {@code name} and {@code id} by the physical name in each field's metadata
 * ({@value #PHYSICAL_NAME_KEY}), and in data files of mode {@code id} by the Parquet field id
 * ({@value #ID_KEY}).
 */
public final class ColumnMapping {
  /** The table property that selects the mode. */
  public static final String MODE_PROPERTY = "delta.columnMapping.mode";
  /** The table property holding the largest column id assigned so far. */
  public static final String MAX_COLUMN_ID_PROPERTY = "delta.columnMapping.maxColumnId";
  /** Field metadata: the column's physical name. */
  public static final String PHYSICAL_NAME_KEY = "delta.columnMapping.physicalName";
  /** Field metadata: the column's 32-bit id, also its Parquet field id. */
  public static final String ID_KEY = "delta.columnMapping.id";
  private static final String PHYSICAL_NAME_PREFIX = "col-";

  /** The modes of {@value #MODE_PROPERTY}. */
  public enum Mode {
    NONE, NAME, ID;

    /** The property value naming this mode. */
    public String propertyValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private ColumnMapping() {}

  /**
   * The mode a table's configuration selects; {@link Mode#NONE} when the property is absent.
   *
   * @throws IllegalArgumentException for a value that is not a mode
   */
  public static Mode mode(Map<String, String> tableConfiguration) {
    String value = tableConfiguration.get(MODE_PROPERTY);
    if (value == null) {
      return Mode.NONE;
    }
    for (Mode mode : Mode.values()) {
      if (mode.propertyValue().equalsIgnoreCase(value.trim())) {
        return mode;
      }
    }
    throw new IllegalArgumentException("table property " + MODE_PROPERTY + " is '" + value + "', expected none, name or id");
  }

  /**
   * The name of {@code field} in data files and the log: its physical name in modes {@code name}
   * and {@code id}, its name otherwise.
   *
   * @throws IllegalArgumentException when the mode needs a physical name the field lacks
   */
  public static String physicalName(StructField field, Mode mode) {
    if (mode == Mode.NONE) {
      return field.name();
    }
    Object physical = field.metadata().get(PHYSICAL_NAME_KEY);
    if (!(physical instanceof String name) || name.isEmpty()) {
      throw new IllegalArgumentException("column '" + field.name() + "' has no " + PHYSICAL_NAME_KEY
          + " in its metadata, which column mapping mode " + mode.propertyValue() + " needs");
    }
    return name;
  }

  /** The column id of {@code field} ({@value #ID_KEY}), empty when it has none. */
  public static OptionalInt id(StructField field) {
    Object id = field.metadata().get(ID_KEY);
    return id instanceof Number number ? OptionalInt.of(number.intValue()) : OptionalInt.empty();
  }

  /**
   * {@code logical} with every field, nested ones too, renamed to its physical name and keeping
   * its metadata (so its column id): the schema of the data files. Mode {@code none} returns
   * {@code logical} itself.
   *
   * @throws IllegalArgumentException when a field lacks the physical name the mode needs, or in
   *     mode {@code id} its column id
   */
  public static StructType physicalSchema(StructType logical, Mode mode) {
    if (mode == Mode.NONE) {
      return logical;
    }
    return (StructType) physical(logical, mode);
  }

  /**
   * {@code schema} with every field (nested ones too) that lacks a column id or physical name given
   * one (PROTOCOL.md, "Writer Requirements for Column Mapping"): ids counting up from
   * {@code maxColumnId} (the table's {@value #MAX_COLUMN_ID_PROPERTY}, or the largest id in the
   * schema when that is larger), physical names {@code col-<random UUID>}, as Spark names them.
   * Fields that have both keep them.
   *
   * @return the schema and the largest column id it now holds
   */
  public static Assigned assign(StructType schema, long maxColumnId) {
    long[] max = {Math.max(maxColumnId, maxId(schema))};
    StructType assigned = (StructType) assign(schema, max);
    return new Assigned(assigned, max[0]);
  }

  /**
   * The largest column id of a table: its {@value #MAX_COLUMN_ID_PROPERTY}, or the largest id in
   * its schema when that is larger (or the property is absent).
   */
  public static long maxColumnId(Map<String, String> configuration, StructType schema) {
    String property = configuration.get(MAX_COLUMN_ID_PROPERTY);
    long recorded = property == null || property.isBlank() ? 0 : Long.parseLong(property.trim());
    return Math.max(recorded, maxId(schema));
  }

  /** A schema whose every field has a column id and physical name, and the largest id it holds. */
  public record Assigned(StructType schema, long maxColumnId) {}

  private static DataType assign(DataType type, long[] max) {
    if (type instanceof StructType struct) {
      List<StructField> fields = new ArrayList<>(struct.size());
      for (StructField field : struct.fields()) {
        Map<String, Object> metadata = new LinkedHashMap<>(field.metadata());
        if (id(field).isEmpty()) {
          metadata.put(ID_KEY, Math.toIntExact(++max[0]));
        }
        if (!(metadata.get(PHYSICAL_NAME_KEY) instanceof String name) || name.isEmpty()) {
          metadata.put(PHYSICAL_NAME_KEY, PHYSICAL_NAME_PREFIX + UUID.randomUUID());
        }
        fields.add(new StructField(field.name(), assign(field.type(), max), field.nullable(), metadata));
      }
      return new StructType(fields);
    }
    if (type instanceof ArrayType array) {
      return new ArrayType(assign(array.elementType(), max), array.containsNull());
    }
    if (type instanceof MapType map) {
      return new MapType(assign(map.keyType(), max), assign(map.valueType(), max), map.valueContainsNull());
    }
    return type;
  }

  private static long maxId(DataType type) {
    long max = 0;
    if (type instanceof StructType struct) {
      for (StructField field : struct.fields()) {
        max = Math.max(max, Math.max(id(field).orElse(0), maxId(field.type())));
      }
    } else if (type instanceof ArrayType array) {
      max = maxId(array.elementType());
    } else if (type instanceof MapType map) {
      max = Math.max(maxId(map.keyType()), maxId(map.valueType()));
    }
    return max;
  }

  private static DataType physical(DataType type, Mode mode) {
    if (type instanceof StructType struct) {
      List<StructField> fields = new ArrayList<>(struct.size());
      for (StructField field : struct.fields()) {
        if (mode == Mode.ID && id(field).isEmpty()) {
          throw new IllegalArgumentException("column '" + field.name() + "' has no " + ID_KEY
              + " in its metadata, which column mapping mode id needs");
        }
        fields.add(new StructField(physicalName(field, mode), physical(field.type(), mode), field.nullable(), field.metadata()));
      }
      return new StructType(fields);
    }
    if (type instanceof ArrayType array) {
      return new ArrayType(physical(array.elementType(), mode), array.containsNull());
    }
    if (type instanceof MapType map) {
      return new MapType(physical(map.keyType(), mode), physical(map.valueType(), mode), map.valueContainsNull());
    }
    return type;
  }
}
