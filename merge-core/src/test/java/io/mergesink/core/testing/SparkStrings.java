package io.mergesink.core.testing;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Renders MergeSink's in-memory values the way the fixtures' {@code EXPECTED_ROWS.csv} holds them:
 * Spark's {@code CAST(... AS STRING)} in a UTC session, binary as upper-case hex, and maps through
 * {@code to_json} of a one-field struct named after the column ({@code {"m":{"k1":1}}}, a null map
 * as {@code {}}), as the fixtures' README says.
 */
public final class SparkStrings {
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final int NANOS_PER_MICRO = 1_000;

  private SparkStrings() {}

  /** Every row rendered, column by column; nulls stay null (the CSV's empty unquoted field). */
  public static List<List<String>> render(StructType schema, List<Row> rows) {
    List<List<String>> rendered = new ArrayList<>(rows.size());
    for (Row row : rows) {
      List<String> fields = new ArrayList<>(schema.size());
      for (int i = 0; i < schema.size(); i++) {
        DataType type = schema.field(i).type();
        fields.add(type instanceof MapType ? toJson(schema.field(i).name(), (Map<?, ?>) row.get(i)) : cast(type, row.get(i)));
      }
      rendered.add(fields);
    }
    return rendered;
  }

  /** {@code CAST(value AS STRING)}. */
  static String cast(DataType type, Object value) {
    if (value == null) {
      return null;
    }
    if (type instanceof PrimitiveType primitive) {
      return switch (primitive) {
        case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
        case TIMESTAMP, TIMESTAMP_NTZ -> timestamp((Long) value);
        case BINARY -> HexFormat.of().withUpperCase().formatHex((byte[]) value);
        default -> value.toString();
      };
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (type instanceof ArrayType array) {
      List<String> elements = new ArrayList<>();
      for (Object element : (List<?>) value) {
        elements.add(element == null ? "null" : cast(array.elementType(), element));
      }
      return "[" + String.join(", ", elements) + "]";
    }
    if (type instanceof StructType struct) {
      Row row = (Row) value;
      List<String> fields = new ArrayList<>();
      for (int i = 0; i < struct.size(); i++) {
        fields.add(row.get(i) == null ? "null" : cast(struct.field(i).type(), row.get(i)));
      }
      return "{" + String.join(", ", fields) + "}";
    }
    throw new IllegalArgumentException("no Spark string rendering for " + type);
  }

  private static String toJson(String column, Map<?, ?> map) {
    if (map == null) {
      return "{}";
    }
    List<String> entries = new ArrayList<>();
    map.forEach((key, value) -> entries.add("\"" + key + "\":" + (value instanceof String s ? "\"" + s + "\"" : value)));
    return "{\"" + column + "\":{" + String.join(",", entries) + "}}";
  }

  /** {@code yyyy-MM-dd HH:mm:ss[.ffffff]} in UTC, trailing zeros of the fraction dropped. */
  private static String timestamp(long micros) {
    LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
        (int) Math.floorMod(micros, MICROS_PER_SECOND) * NANOS_PER_MICRO, ZoneOffset.UTC);
    String text = SECONDS.format(time);
    if (time.getNano() == 0) {
      return text;
    }
    return (text + "." + String.format("%06d", time.getNano() / NANOS_PER_MICRO)).replaceAll("0+$", "");
  }
}
