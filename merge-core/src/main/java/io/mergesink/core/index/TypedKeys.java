package io.mergesink.core.index;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;

/** Checks a key schema and reads typed key values from key rows, with messages naming the column. */
final class TypedKeys {
  private TypedKeys() {}

  /**
   * Checks that every column of {@code keySchema} may be part of a key.
   *
   * @throws IllegalArgumentException when the schema is empty or a column is nested (array, map,
   *     struct)
   */
  static void checkSchema(StructType keySchema) {
    if (keySchema.size() == 0) {
      throw new IllegalArgumentException("a key index needs at least one key column, found " + keySchema);
    }
    for (StructField field : keySchema.fields()) {
      if (!(field.type() instanceof PrimitiveType) && !(field.type() instanceof DecimalType)) {
        throw new IllegalArgumentException("key column '" + field.name() + "' has type " + field.type()
            + ": primary key columns must be of a primitive or decimal type, not nested, in key schema "
            + keySchema);
      }
    }
  }

  /**
   * Whether keys of {@code keySchema} are one integral column that widens to a long without loss:
   * byte, short, integer, long, date, timestamp or timestamp_ntz.
   */
  static boolean isSingleLong(StructType keySchema) {
    if (keySchema.size() != 1 || !(keySchema.field(0).type() instanceof PrimitiveType type)) {
      return false;
    }
    return switch (type) {
      case BYTE, SHORT, INTEGER, LONG, DATE, TIMESTAMP, TIMESTAMP_NTZ -> true;
      default -> false;
    };
  }

  /** The single long-like key value of {@code key}, widened to a long (see {@link #isSingleLong}). */
  static long singleLong(StructType keySchema, Row key) {
    checkArity(keySchema, key);
    Object value = value(keySchema, key, 0);
    PrimitiveType type = (PrimitiveType) keySchema.field(0).type();
    return switch (type) {
      case BYTE -> as(Byte.class, keySchema, 0, value);
      case SHORT -> as(Short.class, keySchema, 0, value);
      case INTEGER, DATE -> as(Integer.class, keySchema, 0, value);
      case LONG, TIMESTAMP, TIMESTAMP_NTZ -> as(Long.class, keySchema, 0, value);
      default -> throw new IllegalStateException("not a long-like key column: " + keySchema);
    };
  }

  static void checkArity(StructType keySchema, Row key) {
    if (key.size() != keySchema.size()) {
      throw new IllegalArgumentException("expected a key row of " + keySchema.size() + " values for key schema "
          + keySchema + ", found " + key.size() + " values: " + key);
    }
  }

  /** The non-null value at {@code ordinal}. */
  static Object value(StructType keySchema, Row key, int ordinal) {
    Object value = key.get(ordinal);
    if (value == null) {
      StructField field = keySchema.field(ordinal);
      throw new IllegalArgumentException("key column '" + field.name() + "' (position " + ordinal + ", type "
          + field.type() + ") is null in key " + key + ": primary key columns must not be null");
    }
    return value;
  }

  /** {@code value} as a {@code type}, or an error naming the column and the class found. */
  static <T> T as(Class<T> type, StructType keySchema, int ordinal, Object value) {
    if (!type.isInstance(value)) {
      StructField field = keySchema.field(ordinal);
      throw new IllegalArgumentException("key column '" + field.name() + "' (position " + ordinal + ", type "
          + field.type() + ") expects a " + type.getName() + ", found " + value.getClass().getName()
          + " " + value);
    }
    return type.cast(value);
  }

  /** The type of column {@code ordinal}. */
  static DataType type(StructType keySchema, int ordinal) {
    return keySchema.field(ordinal).type();
  }
}
