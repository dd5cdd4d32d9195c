package io.mergesink.ingest.decode;

import io.mergesink.core.types.DataType;
import io.mergesink.core.types.PrimitiveType;

/**
 * Key values that arrived without their schema (a header read back by the worker's header
 * converter) in the Java class their key column expects.
 */
final class KeyValues {
  private KeyValues() {}

  /** {@code value} as a value of {@code type}, or null when it cannot be one. */
  static Object as(DataType type, Object value) {
    if (value instanceof Number number && type instanceof PrimitiveType primitive) {
      return switch (primitive) {
        case BYTE -> number.byteValue();
        case SHORT -> number.shortValue();
        case INTEGER, DATE -> number.intValue();
        case LONG, TIMESTAMP, TIMESTAMP_NTZ -> number.longValue();
        case FLOAT -> number.floatValue();
        case DOUBLE -> number.doubleValue();
        default -> null;
      };
    }
    return value;
  }
}
