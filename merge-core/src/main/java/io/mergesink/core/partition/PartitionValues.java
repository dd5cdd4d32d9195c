package io.mergesink.core.partition;

import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * The string form of partition values in {@code add.partitionValues} (PROTOCOL.md, appendix
 * "Partition Value Serialization"), turned into MergeSink's in-memory values (see
 * {@link io.mergesink.core.types.DataType}).
 *
 * <p>An absent, null or empty value is a null partition value, whatever the type. Timestamps are
 * {@code yyyy-MM-dd HH:mm:ss[.ffffff]}, read as UTC (the protocol leaves the zone to the writer's
 * system; Spark writes its session zone, UTC by default), or ISO 8601 with an offset
 * ({@code 1970-01-01T00:00:00.123456Z}); timestamp_ntz values have the first form. Binary values
 * are the UTF-8 bytes of the string, as Delta Kernel reads them.
 *
 * <p>{@link #serialize} writes the forms Spark writes, with timestamps in the form the protocol
 * recommends (ISO 8601 in UTC, six fraction digits); {@link #directoryName} names a value's
 * Hive-style directory as Spark does.
 */
public final class PartitionValues {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final int NANOS_PER_MICRO = 1_000;
  /** {@code yyyy-MM-dd HH:mm:ss} with an optional fraction of up to 9 digits. */
  private static final DateTimeFormatter SPACED = new DateTimeFormatterBuilder()
      .appendPattern("uuuu-MM-dd HH:mm:ss")
      .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
      .toFormatter(Locale.ROOT);

  /** The directory name of a null partition value (Hive's, as Spark writes it). */
  public static final String NULL_DIRECTORY = "__HIVE_DEFAULT_PARTITION__";
  private static final DateTimeFormatter ISO_UTC_MICROS = new DateTimeFormatterBuilder()
      .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
      .appendFraction(ChronoField.NANO_OF_SECOND, 6, 6, true)
      .appendLiteral('Z')
      .toFormatter(Locale.ROOT);
  private static final DateTimeFormatter SPACED_OUT = new DateTimeFormatterBuilder()
      .appendPattern("uuuu-MM-dd HH:mm:ss")
      .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true).optionalEnd()
      .toFormatter(Locale.ROOT);
  /** Characters Spark escapes in partition directory names ({@code ExternalCatalogUtils.charToEscape}, not on Windows). */
  static final String ESCAPED = "\"#%'*/:=?\\\u007F{[]^";
  private static final int FIRST_PRINTABLE = 0x20;
  private static final String HEX = "0123456789ABCDEF";

  private PartitionValues() {}

  /**
   * The string form of partition value {@code value} of a column of type {@code type}: null for
   * null and for the empty string (which the protocol reads as null, so an empty string partition
   * value reads back as null, as in Spark).
   *
   * @throws IllegalArgumentException for a binary or nested column (the protocol's escaped form of
   *     binary values is not one other readers agree on), or a value of the wrong class
   */
  public static String serialize(DataType type, Object value) {
    if (value == null) {
      return null;
    }
    if (type instanceof DecimalType) {
      return ((BigDecimal) value).toPlainString();
    }
    if (!(type instanceof PrimitiveType primitive) || primitive == PrimitiveType.BINARY) {
      throw new IllegalArgumentException("MergeSink writes no partition column of type " + type);
    }
    return switch (primitive) {
      case STRING -> ((String) value).isEmpty() ? null : (String) value;
      case BOOLEAN, BYTE, SHORT, INTEGER, LONG, FLOAT, DOUBLE -> value.toString();
      case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
      case TIMESTAMP -> ISO_UTC_MICROS.format(instant((Long) value).atOffset(ZoneOffset.UTC));
      case TIMESTAMP_NTZ -> SPACED_OUT.format(LocalDateTime.ofInstant(instant((Long) value), ZoneOffset.UTC));
      case BINARY -> throw new IllegalStateException("unreachable");
    };
  }

  /**
   * The Hive-style directory of one partition value, {@code <key>=<escaped value>}, as Spark names
   * it: {@value #NULL_DIRECTORY} for null, and the characters Spark escapes (control characters,
   * DEL, and the characters of {@link #ESCAPED}: quote, hash, percent, apostrophe, star, slash,
   * colon, equals, question mark, backslash, braces and brackets, caret) as {@code %XX}. The result is a file system name; the
   * {@code add} path is its URI encoding.
   */
  public static String directoryName(String key, String serialized) {
    return escape(key) + "=" + (serialized == null ? NULL_DIRECTORY : escape(serialized));
  }

  private static String escape(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < FIRST_PRINTABLE || ESCAPED.indexOf(c) >= 0) {
        out.append('%').append(HEX.charAt(c >> 4 & 0xF)).append(HEX.charAt(c & 0xF));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND), Math.floorMod(micros, MICROS_PER_SECOND) * NANOS_PER_MICRO);
  }

  /**
   * The value of a partition column of type {@code type} serialized as {@code serialized}.
   *
   * @throws IllegalArgumentException when the string is not a value of the type, or the type
   *     cannot be a partition column (struct, array, map)
   */
  public static Object parse(DataType type, String serialized) {
    if (serialized == null || serialized.isEmpty()) {
      return null;
    }
    try {
      if (type instanceof DecimalType decimal) {
        return new BigDecimal(serialized.trim()).setScale(decimal.scale(), RoundingMode.UNNECESSARY);
      }
      if (!(type instanceof PrimitiveType primitive)) {
        throw new IllegalArgumentException("a partition column cannot have type " + type);
      }
      return switch (primitive) {
        case STRING -> serialized;
        case BOOLEAN -> bool(serialized);
        case BYTE -> Byte.parseByte(serialized.trim());
        case SHORT -> Short.parseShort(serialized.trim());
        case INTEGER -> Integer.parseInt(serialized.trim());
        case LONG -> Long.parseLong(serialized.trim());
        case FLOAT -> Float.parseFloat(serialized);
        case DOUBLE -> Double.parseDouble(serialized);
        case DATE -> Math.toIntExact(LocalDate.parse(serialized.trim()).toEpochDay());
        case TIMESTAMP -> timestamp(serialized.trim());
        case TIMESTAMP_NTZ -> micros(LocalDateTime.parse(serialized.trim(), SPACED).toInstant(ZoneOffset.UTC));
        case BINARY -> serialized.getBytes(StandardCharsets.UTF_8);
      };
    } catch (NumberFormatException | ArithmeticException | DateTimeException e) {
      throw new IllegalArgumentException("partition value '" + serialized + "' is not a " + type + " (PROTOCOL.md, "
          + "\"Partition Value Serialization\"): " + e.getMessage(), e);
    }
  }

  private static Boolean bool(String serialized) {
    if (serialized.equalsIgnoreCase("true")) {
      return Boolean.TRUE;
    }
    if (serialized.equalsIgnoreCase("false")) {
      return Boolean.FALSE;
    }
    throw new IllegalArgumentException("partition value '" + serialized + "' is not a boolean: expected true or false");
  }

  private static long timestamp(String serialized) {
    if (serialized.indexOf('T') > 0) {
      return micros(DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(serialized, Instant::from));
    }
    return micros(LocalDateTime.parse(serialized, SPACED).toInstant(ZoneOffset.UTC));
  }

  private static long micros(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), MICROS_PER_SECOND), instant.getNano() / NANOS_PER_MICRO);
  }
}
