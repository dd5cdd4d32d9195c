package io.mergesink.core.types;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Type widening (PROTOCOL.md, "Type Widening"): which type changes Delta allows, and the
 * {@value #METADATA_KEY} history of a schema's fields. Data files written before a change keep the
 * old type; readers convert their values to the wider type.
 */
public final class TypeChanges {
  /** Field metadata: the list of {@code {fromType, toType[, fieldPath]}} changes of the field. */
  public static final String METADATA_KEY = "delta.typeChanges";

  private TypeChanges() {}

  /**
   * Whether Delta allows widening {@code from} to {@code to}: byte → short → integer → long, float →
   * double, byte/short/integer → double, date → timestamp_ntz, decimal(p, s) → decimal(p + k1, s + k2)
   * with k1 ≥ k2 ≥ 0, byte/short/integer → decimal(10 + k1, k2) and long → decimal(20 + k1, k2).
   */
  public static boolean isSupported(DataType from, DataType to) {
    if (from instanceof DecimalType a && to instanceof DecimalType b) {
      int k1 = b.precision() - a.precision();
      int k2 = b.scale() - a.scale();
      return k1 >= k2 && k2 >= 0;
    }
    if (to instanceof DecimalType decimal) {
      int integerDigits = integerDigits(from);
      return integerDigits > 0 && decimal.precision() - decimal.scale() >= integerDigits;
    }
    if (!(from instanceof PrimitiveType a) || !(to instanceof PrimitiveType b) || a == b) {
      return false;
    }
    return switch (a) {
      case BYTE -> b == PrimitiveType.SHORT || b == PrimitiveType.INTEGER || b == PrimitiveType.LONG || b == PrimitiveType.DOUBLE;
      case SHORT -> b == PrimitiveType.INTEGER || b == PrimitiveType.LONG || b == PrimitiveType.DOUBLE;
      case INTEGER -> b == PrimitiveType.LONG || b == PrimitiveType.DOUBLE;
      case FLOAT -> b == PrimitiveType.DOUBLE;
      case DATE -> b == PrimitiveType.TIMESTAMP_NTZ;
      default -> false;
    };
  }

  /**
   * Checks every {@value #METADATA_KEY} entry of {@code schema}, nested fields too.
   *
   * @throws IllegalArgumentException naming the column and the change when an entry is malformed or
   *     records a change Delta does not allow (a reader must not read such a table)
   */
  public static void check(StructType schema) {
    check(schema, "");
  }

  private static void check(DataType type, String prefix) {
    if (type instanceof StructType struct) {
      for (StructField field : struct.fields()) {
        String column = prefix + field.name();
        Object changes = field.metadata().get(METADATA_KEY);
        if (changes != null) {
          checkChanges(column, changes);
        }
        check(field.type(), column + ".");
      }
    } else if (type instanceof ArrayType array) {
      check(array.elementType(), prefix);
    } else if (type instanceof MapType map) {
      check(map.keyType(), prefix);
      check(map.valueType(), prefix);
    }
  }

  private static void checkChanges(String column, Object changes) {
    if (!(changes instanceof List<?> list)) {
      throw new IllegalArgumentException("column '" + column + "': " + METADATA_KEY + " must be a list of type changes, found " + changes);
    }
    for (Object entry : list) {
      if (!(entry instanceof Map<?, ?> change) || !(change.get("fromType") instanceof String fromName)
          || !(change.get("toType") instanceof String toName)) {
        throw new IllegalArgumentException("column '" + column + "': a " + METADATA_KEY + " entry needs fromType and toType, found "
            + entry);
      }
      DataType from = SchemaJson.parseTypeName(fromName, column);
      DataType to = SchemaJson.parseTypeName(toName, column);
      if (!isSupported(from, to)) {
        Object path = change.get("fieldPath");
        throw new IllegalArgumentException("column '" + column + (path == null ? "" : "' (" + path + ")") + "' was changed from "
            + from + " to " + to + ", which is not a type widening Delta allows");
      }
    }
  }

  /**
   * {@code field} widened to {@code to}, its {@value #METADATA_KEY} history extended with the
   * change (PROTOCOL.md, "Type Change Metadata"); earlier entries are kept.
   *
   * @throws IllegalArgumentException naming the column when Delta does not allow the change, or the
   *     field is not of a primitive or decimal type
   */
  public static StructField widened(StructField field, DataType to) {
    if (!isSupported(field.type(), to)) {
      throw new IllegalArgumentException("column '" + field.name() + "' cannot change from " + field.type() + " to " + to
          + ": Delta widens byte, short, integer to a wider integer, double or decimal, long to a decimal, float to double,"
          + " date to timestamp_ntz, and decimals to more digits that keep their integer digits");
    }
    List<Object> history = new ArrayList<>();
    if (field.metadata().get(METADATA_KEY) instanceof List<?> earlier) {
      history.addAll(earlier);
    }
    Map<String, Object> change = new LinkedHashMap<>();
    change.put("fromType", field.type().toString());
    change.put("toType", to.toString());
    history.add(change);
    Map<String, Object> metadata = new LinkedHashMap<>(field.metadata());
    metadata.put(METADATA_KEY, history);
    return new StructField(field.name(), to, field.nullable(), metadata);
  }

  /** Whether {@code schema} records a type change (a field's {@value #METADATA_KEY}), nested fields included. */
  public static boolean hasTypeChanges(StructType schema) {
    for (StructField field : schema.fields()) {
      if (field.metadata().containsKey(METADATA_KEY) || (field.type() instanceof StructType nested && hasTypeChanges(nested))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Converts a value of {@code from} into the same value of the wider {@code to}, as a reader of a
   * file written before the change reads it: integers and floats exactly, a date as midnight
   * timestamp_ntz, decimals at the wider scale.
   *
   * @throws IllegalArgumentException when Delta does not allow widening {@code from} to {@code to}
   */
  public static UnaryOperator<Object> converter(DataType from, DataType to) {
    if (!isSupported(from, to)) {
      throw new IllegalArgumentException("no type widening from " + from + " to " + to);
    }
    if (to instanceof DecimalType decimal) {
      return from instanceof DecimalType
          ? value -> ((BigDecimal) value).setScale(decimal.scale())
          : value -> BigDecimal.valueOf(((Number) value).longValue()).setScale(decimal.scale());
    }
    return switch ((PrimitiveType) to) {
      case SHORT -> value -> ((Number) value).shortValue();
      case INTEGER -> value -> ((Number) value).intValue();
      case LONG -> value -> ((Number) value).longValue();
      case DOUBLE -> value -> ((Number) value).doubleValue();
      case TIMESTAMP_NTZ -> value -> ((Integer) value) * MICROS_PER_DAY;
      default -> throw new IllegalStateException("unreachable: " + from + " to " + to);
    };
  }

  private static final long MICROS_PER_DAY = 86_400_000_000L;

  /** Decimal digits an integer type needs (byte, short, integer: 10; long: 20), 0 for other types. */
  private static int integerDigits(DataType type) {
    if (type == PrimitiveType.BYTE || type == PrimitiveType.SHORT || type == PrimitiveType.INTEGER) {
      return 10;
    }
    return type == PrimitiveType.LONG ? 20 : 0;
  }
}
