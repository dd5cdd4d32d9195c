package io.mergesink.ingest.decode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Infers a schema for schemaless values (JsonConverter with {@code schemas.enable=false} yields
 * {@code Map<String, Object>}). The rules, per top-level entry:
 *
 * <ul>
 *   <li>null → the column is left out of the event (the table column, if any, gets null);
 *   <li>Boolean → boolean; Byte, Short, Integer, Long → long; Float, Double → double;
 *   <li>BigDecimal, BigInteger → string in plain notation (no scale can be inferred reliably);
 *   <li>String → string (never reinterpreted as a date or number);
 *   <li>{@code byte[]}, ByteBuffer → binary; {@link java.util.Date} → timestamp (UTC);
 *   <li>a list of scalars → array of the scalars' type (long and double together → double;
 *       empty or all-null → array&lt;string&gt;; other mixes are an error);
 *   <li>a nested map, or a list holding maps or lists → string holding the value as JSON, keys sorted (its
 *       keys may be data, not columns, so they do not become struct fields);
 *   <li>Debezium's TOAST placeholder → {@link Unchanged#VALUE}, typed string (a table column of
 *       another type accepts it: the merge keeps the current value).
 * </ul>
 *
 * Every inferred column is nullable. Columns keep the map's order when it has one (a linked or
 * sorted map); otherwise (JsonConverter yields a HashMap) they are sorted by name, so the same
 * fields always give the same schema.
 */
public final class SchemalessConverter {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  private final ValueConverter values;

  public SchemalessConverter(ValueConverter values) {
    this.values = values;
  }

  /**
   * The columns of a schemaless map, in the map's iteration order.
   *
   * @param path where the map sits in the record (e.g. {@code after}), for messages
   * @throws ConversionException when a key is not a string or a value has no inferable type
   */
  public TypedRow toRow(Map<?, ?> map, String path) {
    List<StructField> fields = new ArrayList<>(map.size());
    List<Object> row = new ArrayList<>(map.size());
    for (Map.Entry<?, ?> entry : ordered(map, path)) {
      if (!(entry.getKey() instanceof String name)) {
        throw new ConversionException(path + ": expected string keys in a schemaless value, found "
            + (entry.getKey() == null ? "null" : entry.getKey().getClass().getSimpleName() + " '" + entry.getKey() + "'"));
      }
      Object value = entry.getValue();
      if (value == null) {
        continue;
      }
      String columnPath = path + "." + name;
      if (values.isPlaceholder(value)) {
        fields.add(new StructField(name, PrimitiveType.STRING, true));
        row.add(Unchanged.VALUE);
        continue;
      }
      DataType type = inferType(value, columnPath);
      fields.add(new StructField(name, type, true));
      row.add(convert(value, type, columnPath));
    }
    return new TypedRow(new StructType(fields), Row.of(row.toArray()));
  }

  /** The entries in the map's own order if it has one (linked or sorted), else sorted by name. */
  private static List<Map.Entry<?, ?>> ordered(Map<?, ?> map, String path) {
    List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
    if (map instanceof java.util.LinkedHashMap<?, ?> || map instanceof java.util.SortedMap<?, ?>) {
      return entries;
    }
    for (Map.Entry<?, ?> entry : entries) {
      if (!(entry.getKey() instanceof String)) {
        throw new ConversionException(path + ": expected string keys in a schemaless value, found "
            + (entry.getKey() == null ? "null" : entry.getKey().getClass().getSimpleName() + " '" + entry.getKey() + "'"));
      }
    }
    entries.sort(java.util.Comparator.comparing(entry -> (String) entry.getKey()));
    return entries;
  }

  private static DataType inferType(Object value, String path) {
    DataType scalar = scalarType(value);
    if (scalar != null) {
      return scalar;
    }
    if (value instanceof Map<?, ?>) {
      return PrimitiveType.STRING;
    }
    if (value instanceof List<?> list) {
      DataType element = null;
      for (Object item : list) {
        if (item == null) {
          continue;
        }
        if (item instanceof Map<?, ?> || item instanceof List<?>) {
          return PrimitiveType.STRING;
        }
        DataType itemType = scalarType(item);
        if (itemType == null) {
          throw unsupported(path, item);
        }
        element = element == null ? itemType : widen(element, itemType, path);
      }
      return new ArrayType(element == null ? PrimitiveType.STRING : element, true);
    }
    throw unsupported(path, value);
  }

  private static DataType scalarType(Object value) {
    if (value instanceof Boolean) {
      return PrimitiveType.BOOLEAN;
    }
    if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
      return PrimitiveType.LONG;
    }
    if (value instanceof Float || value instanceof Double) {
      return PrimitiveType.DOUBLE;
    }
    if (value instanceof String || value instanceof BigDecimal || value instanceof BigInteger) {
      return PrimitiveType.STRING;
    }
    if (value instanceof byte[] || value instanceof ByteBuffer) {
      return PrimitiveType.BINARY;
    }
    if (value instanceof java.util.Date) {
      return PrimitiveType.TIMESTAMP;
    }
    return null;
  }

  private static DataType widen(DataType a, DataType b, String path) {
    if (a.equals(b)) {
      return a;
    }
    boolean numeric = (a == PrimitiveType.LONG || a == PrimitiveType.DOUBLE)
        && (b == PrimitiveType.LONG || b == PrimitiveType.DOUBLE);
    if (numeric) {
      return PrimitiveType.DOUBLE;
    }
    throw new ConversionException(path + ": array mixes " + a + " and " + b + " elements");
  }

  private static Object convert(Object value, DataType type, String path) {
    if (type == PrimitiveType.STRING) {
      if (value instanceof BigDecimal decimal) {
        return decimal.toPlainString();
      }
      if (value instanceof Map<?, ?> || value instanceof List<?>) {
        return toJson(value, path);
      }
      return value.toString();
    }
    if (type instanceof ArrayType array) {
      List<Object> converted = new ArrayList<>();
      for (Object item : (List<?>) value) {
        converted.add(item == null ? null : convert(item, array.elementType(), path));
      }
      return converted;
    }
    return switch ((PrimitiveType) type) {
      case LONG -> ((Number) value).longValue();
      case DOUBLE -> ((Number) value).doubleValue();
      case BINARY -> ValueConverter.bytes(value, path);
      case TIMESTAMP -> Math.multiplyExact(((java.util.Date) value).getTime(), 1_000L);
      default -> value;
    };
  }

  private static String toJson(Object value, String path) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new ConversionException(path + ": cannot write the nested value as JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static ConversionException unsupported(String path, Object value) {
    return new ConversionException(path + ": cannot infer a column type for a schemaless "
        + value.getClass().getName() + " value '" + value + "'");
  }
}
