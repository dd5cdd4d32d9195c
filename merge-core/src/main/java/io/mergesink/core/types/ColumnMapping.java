package io.mergesink.core.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

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
