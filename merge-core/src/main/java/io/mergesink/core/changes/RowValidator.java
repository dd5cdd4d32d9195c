package io.mergesink.core.changes;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Checks that a row fits a schema: one value per column, the Java class documented on
 * {@link DataType} for each type, no null in a non-nullable column, decimals with the column's
 * scale and within its precision. Run before anything is written, so a bad row never reaches a
 * file.
 */
public final class RowValidator {
  private RowValidator() {}

  /**
   * @param allowUnchanged whether top-level {@link Unchanged#VALUE} markers are accepted (upserts)
   * @return null when the row fits, otherwise what is wrong, naming the column
   */
  public static String problem(StructType schema, Row row, boolean allowUnchanged) {
    if (row.size() != schema.size()) {
      return "row has " + row.size() + " values but the table has " + schema.size() + " columns " + schema.fieldNames();
    }
    for (int i = 0; i < schema.size(); i++) {
      StructField field = schema.field(i);
      Object value = row.get(i);
      if (value == Unchanged.VALUE && allowUnchanged) {
        continue;
      }
      String problem = valueProblem(field.type(), field.nullable(), value);
      if (problem != null) {
        return "column '" + field.name() + "' (" + field.type() + "): " + problem;
      }
    }
    return null;
  }

  private static String valueProblem(DataType type, boolean nullable, Object value) {
    if (value == null) {
      return nullable ? null : "null in a non-nullable column";
    }
    if (type instanceof PrimitiveType primitive) {
      Class<?> expected = javaClass(primitive);
      return expected.isInstance(value) ? null : "expected " + expected.getSimpleName() + ", found " + describe(value);
    }
    if (type instanceof DecimalType decimal) {
      if (!(value instanceof BigDecimal number)) {
        return "expected BigDecimal, found " + describe(value);
      }
      if (number.scale() != decimal.scale()) {
        return "scale " + number.scale() + " of " + number.toPlainString() + " differs from the column's scale " + decimal.scale();
      }
      if (number.precision() > decimal.precision()) {
        return number.toPlainString() + " has more than " + decimal.precision() + " digits";
      }
      return null;
    }
    if (type instanceof ArrayType array) {
      if (!(value instanceof List<?> list)) {
        return "expected List, found " + describe(value);
      }
      for (Object element : list) {
        String problem = valueProblem(array.elementType(), array.containsNull(), element);
        if (problem != null) {
          return "array element: " + problem;
        }
      }
      return null;
    }
    if (type instanceof MapType map) {
      if (!(value instanceof Map<?, ?> entries)) {
        return "expected Map, found " + describe(value);
      }
      for (Map.Entry<?, ?> entry : entries.entrySet()) {
        String problem = valueProblem(map.keyType(), false, entry.getKey());
        if (problem == null) {
          problem = valueProblem(map.valueType(), map.valueContainsNull(), entry.getValue());
        }
        if (problem != null) {
          return "map entry " + entry.getKey() + ": " + problem;
        }
      }
      return null;
    }
    StructType struct = (StructType) type;
    if (!(value instanceof Row nested)) {
      return "expected Row, found " + describe(value);
    }
    String problem = problem(struct, nested, false);
    return problem == null ? null : "field " + problem;
  }

  private static Class<?> javaClass(PrimitiveType type) {
    return switch (type) {
      case BOOLEAN -> Boolean.class;
      case BYTE -> Byte.class;
      case SHORT -> Short.class;
      case INTEGER, DATE -> Integer.class;
      case LONG, TIMESTAMP, TIMESTAMP_NTZ -> Long.class;
      case FLOAT -> Float.class;
      case DOUBLE -> Double.class;
      case STRING -> String.class;
      case BINARY -> byte[].class;
    };
  }

  private static String describe(Object value) {
    return value.getClass().getSimpleName() + " " + (value instanceof byte[] ? "" : value);
  }
}
