package io.mergesink.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Row values as JSON and CSV: dates as {@code 2026-01-31}, timestamps (microseconds) as ISO-8601
 * instants in UTC ({@code timestamp_ntz} without zone), decimals exact, binary as Base64, arrays,
 * maps and structs as JSON (in CSV, as JSON text in one field).
 */
final class RowFormat {
  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  private static final long MICROS_PER_SECOND = 1_000_000;
  private static final long NANOS_PER_MICRO = 1_000;

  private RowFormat() {}

  static ObjectNode toJson(StructType schema, Row row) {
    ObjectNode node = NODES.objectNode();
    for (int i = 0; i < schema.size(); i++) {
      node.set(schema.field(i).name(), toJson(schema.field(i).type(), row.get(i)));
    }
    return node;
  }

  static JsonNode toJson(DataType type, Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (type instanceof StructType struct) {
      return toJson(struct, (Row) value);
    }
    if (type instanceof ArrayType array) {
      ArrayNode node = NODES.arrayNode();
      for (Object element : (List<?>) value) {
        node.add(toJson(array.elementType(), element));
      }
      return node;
    }
    if (type instanceof MapType map) {
      ArrayNode entries = NODES.arrayNode();
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        ObjectNode pair = NODES.objectNode();
        pair.set("key", toJson(map.keyType(), entry.getKey()));
        pair.set("value", toJson(map.valueType(), entry.getValue()));
        entries.add(pair);
      }
      return entries;
    }
    if (value instanceof BigDecimal decimal) {
      return NODES.numberNode(decimal);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (type == PrimitiveType.DATE || type == PrimitiveType.TIMESTAMP || type == PrimitiveType.TIMESTAMP_NTZ
        || type == PrimitiveType.BINARY || type == PrimitiveType.STRING) {
      return NODES.textNode(text(type, value));
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Short s) {
      return NODES.numberNode(s);
    }
    if (value instanceof Byte b) {
      return NODES.numberNode(b);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Float f) {
      return NODES.numberNode(f);
    }
    return NODES.textNode(value.toString());
  }

  /** The value as one CSV field's text (before quoting); null is the empty field. */
  static String text(DataType type, Object value) {
    if (value == null) {
      return "";
    }
    if (type == PrimitiveType.DATE) {
      return LocalDate.ofEpochDay((Integer) value).toString();
    }
    if (type == PrimitiveType.TIMESTAMP) {
      return instant((Long) value).toString();
    }
    if (type == PrimitiveType.TIMESTAMP_NTZ) {
      return LocalDateTime.ofInstant(instant((Long) value), ZoneOffset.UTC).toString();
    }
    if (type == PrimitiveType.BINARY) {
      return Base64.getEncoder().encodeToString((byte[]) value);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (type instanceof StructType || type instanceof ArrayType || type instanceof MapType) {
      return toJson(type, value).toString();
    }
    return value.toString();
  }

  /** RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled. */
  static String csvField(String text) {
    if (text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0 && text.indexOf('\r') < 0) {
      return text;
    }
    return '"' + text.replace("\"", "\"\"") + '"';
  }

  private static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND), Math.floorMod(micros, MICROS_PER_SECOND) * NANOS_PER_MICRO);
  }
}
