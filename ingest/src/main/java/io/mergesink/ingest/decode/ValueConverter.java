package io.mergesink.ingest.decode;

import static io.mergesink.ingest.decode.LogicalTypes.*;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.DecimalType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Converts Connect values into the table engine's in-memory values (documented on
 * {@link io.mergesink.core.types.DataType}), following {@link SchemaConverter}'s type mapping:
 * dates become Integer days, timestamps Long microseconds, times Long microseconds of the day,
 * decimals BigDecimal with the column's scale, bytes {@code byte[]}, structs {@link Row}s.
 *
 * <p>{@link #convertColumn} also recognises Debezium's placeholder for unchanged PostgreSQL TOAST
 * values (the string, its UTF-8 bytes, or a one-element array of either) and returns
 * {@link Unchanged#VALUE} for it.
 */
public final class ValueConverter {
  private static final long MICROS_PER_MILLI = 1_000L;
  private static final long NANOS_PER_MICRO = 1_000L;
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private final String placeholder;
  private final byte[] placeholderBytes;

  /** @param placeholder Debezium's {@code unavailable.value.placeholder} */
  public ValueConverter(String placeholder) {
    this.placeholder = Objects.requireNonNull(placeholder, "placeholder");
    this.placeholderBytes = placeholder.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A struct as a row of its fields, in schema order; top-level TOAST placeholders become
   * {@link Unchanged#VALUE}.
   *
   * @param path where the struct sits in the record (e.g. {@code after}), for messages
   */
  public Row toRow(Struct struct, String path) {
    List<Field> fields = struct.schema().fields();
    Object[] values = new Object[fields.size()];
    for (int i = 0; i < values.length; i++) {
      Field field = fields.get(i);
      values[i] = convertColumn(struct.get(field), field.schema(), path + "." + field.name());
    }
    return Row.of(values);
  }

  /** A top-level column value: like {@link #convert}, plus TOAST placeholder detection. */
  public Object convertColumn(Object value, Schema schema, String path) {
    if (isPlaceholder(value)) {
      return Unchanged.VALUE;
    }
    return convert(value, schema, path);
  }

  /** Whether {@code value} is Debezium's "value not available" placeholder. */
  public boolean isPlaceholder(Object value) {
    if (value instanceof String text) {
      return text.equals(placeholder);
    }
    if (value instanceof byte[] bytes) {
      return Arrays.equals(bytes, placeholderBytes);
    }
    if (value instanceof ByteBuffer buffer) {
      return buffer.remaining() == placeholderBytes.length && buffer.equals(ByteBuffer.wrap(placeholderBytes));
    }
    if (value instanceof List<?> list && list.size() == 1) {
      Object element = list.get(0);
      return !(element instanceof List) && isPlaceholder(element);
    }
    return false;
  }

  /**
   * Converts one value of the given Connect schema.
   *
   * @throws ConversionException naming {@code path} when the value does not fit its schema
   */
  public Object convert(Object value, Schema schema, String path) {
    if (value == null) {
      return null;
    }
    String name = schema.name();
    if (name != null) {
      switch (name) {
        case CONNECT_DATE:
          return Math.toIntExact(Math.floorDiv(date(value, path).getTime(), MILLIS_PER_DAY));
        case DEBEZIUM_DATE:
          return number(value, path).intValue();
        case CONNECT_TIME:
        case CONNECT_TIMESTAMP:
          return Math.multiplyExact(date(value, path).getTime(), MICROS_PER_MILLI);
        case DEBEZIUM_TIME:
        case DEBEZIUM_TIMESTAMP:
          return Math.multiplyExact(number(value, path).longValue(), MICROS_PER_MILLI);
        case DEBEZIUM_MICRO_TIME:
        case DEBEZIUM_MICRO_TIMESTAMP:
          return number(value, path).longValue();
        case DEBEZIUM_NANO_TIME:
        case DEBEZIUM_NANO_TIMESTAMP:
          return Math.floorDiv(number(value, path).longValue(), NANOS_PER_MICRO);
        case DEBEZIUM_ZONED_TIMESTAMP:
          return zonedTimestampMicros(value, path);
        case CONNECT_DECIMAL:
          return decimal(value, schema, path);
        case DEBEZIUM_VARIABLE_SCALE_DECIMAL:
          return variableScaleDecimal(value, path);
        default:
          break;
      }
    }
    return switch (schema.type()) {
      case INT8 -> (byte) exactLong(value, path, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case INT16 -> (short) exactLong(value, path, Short.MIN_VALUE, Short.MAX_VALUE);
      case INT32 -> (int) exactLong(value, path, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case INT64 -> exactLong(value, path, Long.MIN_VALUE, Long.MAX_VALUE);
      case FLOAT32 -> number(value, path).floatValue();
      case FLOAT64 -> number(value, path).doubleValue();
      case BOOLEAN -> expect(value, Boolean.class, path);
      case STRING -> expect(value, String.class, path);
      case BYTES -> bytes(value, path);
      case ARRAY -> array(value, schema, path);
      case MAP -> map(value, schema, path);
      case STRUCT -> toRow(expectStruct(value, path), path, schema);
    };
  }

  private Row toRow(Struct struct, String path, Schema schema) {
    List<Field> fields = schema.fields();
    Object[] values = new Object[fields.size()];
    for (int i = 0; i < values.length; i++) {
      Field field = fields.get(i);
      values[i] = convert(struct.get(field.name()), field.schema(), path + "." + field.name());
    }
    return Row.of(values);
  }

  private List<Object> array(Object value, Schema schema, String path) {
    if (!(value instanceof List<?> list)) {
      throw mismatch(path, "an array", value);
    }
    List<Object> converted = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      converted.add(convert(list.get(i), schema.valueSchema(), path + "[" + i + "]"));
    }
    return converted;
  }

  private Map<Object, Object> map(Object value, Schema schema, String path) {
    if (!(value instanceof Map<?, ?> map)) {
      throw mismatch(path, "a map", value);
    }
    Map<Object, Object> converted = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      Object key = convert(entry.getKey(), schema.keySchema(), path + ".key");
      if (key == null) {
        throw new ConversionException(path + ": map keys must not be null");
      }
      converted.put(key, convert(entry.getValue(), schema.valueSchema(), path + "[" + entry.getKey() + "]"));
    }
    return converted;
  }

  private static Object decimal(Object value, Schema schema, String path) {
    BigDecimal decimal;
    if (value instanceof BigDecimal big) {
      decimal = big;
    } else if (value instanceof byte[] || value instanceof ByteBuffer) {
      int scale = Integer.parseInt(schema.parameters().get(DECIMAL_SCALE_PARAMETER));
      decimal = new BigDecimal(new BigInteger(bytes(value, path)), scale);
    } else {
      throw mismatch(path, "a decimal (BigDecimal)", value);
    }
    Optional<DecimalType> type = SchemaConverter.decimalType(schema);
    if (type.isEmpty()) {
      return decimal.toPlainString();
    }
    BigDecimal scaled;
    try {
      scaled = decimal.setScale(type.get().scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new ConversionException(path + ": decimal " + decimal.toPlainString() + " has more fraction digits than "
          + type.get(), e);
    }
    if (scaled.precision() > type.get().precision()) {
      throw new ConversionException(path + ": decimal " + decimal.toPlainString() + " does not fit " + type.get());
    }
    return scaled;
  }

  private static String variableScaleDecimal(Object value, String path) {
    Struct struct = expectStruct(value, path);
    Object scale = struct.get(VARIABLE_SCALE_DECIMAL_SCALE);
    Object unscaled = struct.get(VARIABLE_SCALE_DECIMAL_VALUE);
    if (!(scale instanceof Number) || unscaled == null) {
      throw new ConversionException(path + ": VariableScaleDecimal without scale or value: " + struct);
    }
    return new BigDecimal(new BigInteger(bytes(unscaled, path)), ((Number) scale).intValue()).toPlainString();
  }

  private static long zonedTimestampMicros(Object value, String path) {
    String text = expect(value, String.class, path);
    try {
      OffsetDateTime time = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
      long seconds = time.toEpochSecond();
      return Math.addExact(Math.multiplyExact(seconds, MICROS_PER_SECOND), time.getNano() / NANOS_PER_MICRO);
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new ConversionException(path + ": expected an ISO-8601 timestamp with offset (ZonedTimestamp), found '"
          + text + "'", e);
    }
  }

  static byte[] bytes(Object value, String path) {
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return bytes;
    }
    throw mismatch(path, "bytes", value);
  }

  private static long exactLong(Object value, String path, long min, long max) {
    Number number = number(value, path);
    if (number instanceof Double || number instanceof Float || number instanceof BigDecimal) {
      throw mismatch(path, "an integer", value);
    }
    long result = number.longValue();
    if (result < min || result > max || (number instanceof BigInteger big && big.bitLength() >= Long.SIZE)) {
      throw new ConversionException(path + ": " + value + " is outside " + min + ".." + max);
    }
    return result;
  }

  private static Number number(Object value, String path) {
    return expect(value, Number.class, path);
  }

  private static java.util.Date date(Object value, String path) {
    return expect(value, java.util.Date.class, path);
  }

  private static Struct expectStruct(Object value, String path) {
    return expect(value, Struct.class, path);
  }

  private static <T> T expect(Object value, Class<T> type, String path) {
    if (!type.isInstance(value)) {
      throw mismatch(path, "a " + type.getSimpleName(), value);
    }
    return type.cast(value);
  }

  private static ConversionException mismatch(String path, String expected, Object found) {
    return new ConversionException(path + ": expected " + expected + ", found " + found.getClass().getSimpleName()
        + " '" + found + "'");
  }
}
