package io.mergesink.core.parquet;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A schema with every Delta type and rows that hit nulls, boundaries and nesting. */
final class AllTypes {
  static final StructType POINT = StructType.of(
      new StructField("x", PrimitiveType.INTEGER, true),
      new StructField("label", PrimitiveType.STRING, true));

  static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("flag", PrimitiveType.BOOLEAN, true),
      new StructField("b", PrimitiveType.BYTE, true),
      new StructField("s", PrimitiveType.SHORT, true),
      new StructField("i", PrimitiveType.INTEGER, true),
      new StructField("f", PrimitiveType.FLOAT, true),
      new StructField("d", PrimitiveType.DOUBLE, true),
      new StructField("str", PrimitiveType.STRING, true),
      new StructField("bin", PrimitiveType.BINARY, true),
      new StructField("day", PrimitiveType.DATE, true),
      new StructField("ts", PrimitiveType.TIMESTAMP, true),
      new StructField("ts_ntz", PrimitiveType.TIMESTAMP_NTZ, true),
      new StructField("dec5", new DecimalType(5, 2), true),
      new StructField("dec18", new DecimalType(18, 4), true),
      new StructField("dec38", new DecimalType(38, 10), true),
      new StructField("tags", new ArrayType(PrimitiveType.STRING, true), true),
      new StructField("points", new ArrayType(POINT, true), true),
      new StructField("attrs", new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true), true),
      new StructField("nested", StructType.of(
          new StructField("p", POINT, true),
          new StructField("n", PrimitiveType.LONG, false)), true));

  private AllTypes() {}

  static long micros(String instant) {
    return toMicros(Instant.parse(instant));
  }

  static long microsNtz(String localDateTime) {
    return toMicros(LocalDateTime.parse(localDateTime).toInstant(ZoneOffset.UTC));
  }

  private static long toMicros(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  static int days(String date) {
    return (int) LocalDate.parse(date).toEpochDay();
  }

  static <K, V> Map<K, V> orderedMap(Object... keysAndValues) {
    Map<K, V> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      @SuppressWarnings("unchecked")
      K key = (K) keysAndValues[i];
      @SuppressWarnings("unchecked")
      V value = (V) keysAndValues[i + 1];
      map.put(key, value);
    }
    return map;
  }

  static List<Row> rows() {
    Row typical = Row.of(1L, true, (byte) 7, (short) 300, 42, 1.5f, 2.25, "héllo, \"world\" 🎉",
        new byte[] {0, (byte) 0xFF, 0x10}, days("2026-02-28"), micros("2026-03-01T12:34:56.789012Z"),
        microsNtz("2026-03-01T12:34:56.789012"), new BigDecimal("123.45"), new BigDecimal("-12345678901234.5678"),
        new BigDecimal("1234567890123456789012345678.0123456789"), Arrays.asList("a", null, "c"),
        Arrays.asList(Row.of(1, "one"), null, Row.of(null, null)), orderedMap("k1", 1L, "k2", null),
        Row.of(Row.of(7, "why"), 70L));
    Row nulls = Row.of(2L, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null);
    Row minimum = Row.of(Long.MIN_VALUE, false, Byte.MIN_VALUE, Short.MIN_VALUE, Integer.MIN_VALUE,
        -Float.MAX_VALUE, -Double.MAX_VALUE, "", new byte[0], days("0001-01-01"), micros("1969-12-31T23:59:59.999999Z"),
        microsNtz("0001-01-01T00:00:00"), new BigDecimal("-999.99"), new BigDecimal("-99999999999999.9999"),
        new BigDecimal("-9999999999999999999999999999.9999999999"), List.of(), List.of(), Map.of(),
        Row.of(null, Long.MIN_VALUE));
    Row maximum = Row.of(Long.MAX_VALUE, true, Byte.MAX_VALUE, Short.MAX_VALUE, Integer.MAX_VALUE,
        Float.MAX_VALUE, Double.MAX_VALUE, "z".repeat(100), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9},
        days("9999-12-31"), micros("9999-12-31T23:59:59.999999Z"), microsNtz("9999-12-31T23:59:59.999999"),
        new BigDecimal("999.99"), new BigDecimal("99999999999999.9999"),
        new BigDecimal("9999999999999999999999999999.9999999999"), List.of("only"), List.of(Row.of(-1, "neg")),
        orderedMap("a", Long.MAX_VALUE, "b", Long.MIN_VALUE, "c", 0L), Row.of(Row.of(Integer.MIN_VALUE, ""), 0L));
    Row small = Row.of(0L, false, (byte) 0, (short) -1, -1, -0.0f, -0.0, " ", new byte[] {0},
        days("1970-01-01"), 0L, 0L, new BigDecimal("0.01"), new BigDecimal("-0.0001"),
        new BigDecimal("-0.0000000001"), Arrays.asList((String) null), Arrays.asList((Row) null),
        orderedMap("", null), null);
    return List.of(typical, nulls, minimum, maximum, small);
  }
}
