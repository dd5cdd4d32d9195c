package io.mergesink.core.data;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One row of values, positionally matching a {@link io.mergesink.core.types.StructType}. The Java
 * class of each value per type is documented on {@link io.mergesink.core.types.DataType}.
 *
 * <p>A row is immutable by contract: {@link #of} takes ownership of the array it is given, and
 * callers never modify a value array after handing it over. Equality is deep (arrays such as
 * {@code byte[]} compare by content, also inside lists, maps and nested rows).
 */
public final class Row {
  private final Object[] values;

  private Row(Object[] values) {
    this.values = values;
  }

  /** A row over {@code values}; the array is not copied. */
  public static Row of(Object... values) {
    return new Row(values);
  }

  public int size() {
    return values.length;
  }

  public Object get(int ordinal) {
    return values[ordinal];
  }

  public boolean isNull(int ordinal) {
    return values[ordinal] == null;
  }

  /** A copy of the values, for building a changed row. */
  public Object[] toArray() {
    return values.clone();
  }

  /** The values at the given positions, as a new row. */
  public Row project(int[] ordinals) {
    Object[] projected = new Object[ordinals.length];
    for (int i = 0; i < ordinals.length; i++) {
      projected[i] = values[ordinals[i]];
    }
    return new Row(projected);
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Row that) || that.values.length != values.length) {
      return false;
    }
    for (int i = 0; i < values.length; i++) {
      if (!valueEquals(values[i], that.values[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int hash = 1;
    for (Object value : values) {
      hash = 31 * hash + valueHash(value);
    }
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(values[i] instanceof byte[] bytes ? Arrays.toString(bytes) : values[i]);
    }
    return sb.append(']').toString();
  }

  static boolean valueEquals(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!valueEquals(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (Map.Entry<?, ?> entry : x.entrySet()) {
        if (!y.containsKey(entry.getKey()) || !valueEquals(entry.getValue(), y.get(entry.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  static int valueHash(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof byte[] bytes) {
      return Arrays.hashCode(bytes);
    }
    if (value instanceof List<?> list) {
      int hash = 1;
      for (Object element : list) {
        hash = 31 * hash + valueHash(element);
      }
      return hash;
    }
    if (value instanceof Map<?, ?> map) {
      int hash = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        hash += valueHash(entry.getKey()) ^ valueHash(entry.getValue());
      }
      return hash;
    }
    return value.hashCode();
  }
}
