package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.data.Row;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * The engine's rows and Iceberg's generic records. Values follow the engine's in-memory types
 * ({@link io.mergesink.core.types.DataType}) on one side and Iceberg's generic ones on the other:
 * dates as {@link LocalDate}, timestamps as {@link OffsetDateTime} (with zone) or
 * {@link LocalDateTime}, binary as {@link ByteBuffer}, structs as {@link Record}.
 */
final class IcebergRows {
  private IcebergRows() {}

  /** {@code row}, whose values are in the order of {@code struct}'s fields, as a record of it. */
  static Record toRecord(Types.StructType struct, Row row) {
    GenericRecord record = GenericRecord.create(struct);
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i++) {
      record.set(i, toIceberg(fields.get(i).type(), row.get(i)));
    }
    return record;
  }

  /** {@code record}'s first {@code width} values as a row of the engine. */
  static Row toRow(Types.StructType struct, Record record, int width) {
    Object[] values = new Object[width];
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < width; i++) {
      values[i] = fromIceberg(fields.get(i).type(), record.get(i));
    }
    return Row.of(values);
  }

  private static Object toIceberg(Type type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type.typeId()) {
      case INTEGER -> ((Number) value).intValue();
      case LONG -> ((Number) value).longValue();
      case FLOAT -> ((Number) value).floatValue();
      case DOUBLE -> ((Number) value).doubleValue();
      case BINARY -> ByteBuffer.wrap((byte[]) value);
      case DATE -> LocalDate.ofEpochDay(((Number) value).longValue());
      case TIMESTAMP -> ((Types.TimestampType) type).shouldAdjustToUTC()
          ? DateTimeUtil.timestamptzFromMicros((Long) value) : DateTimeUtil.timestampFromMicros((Long) value);
      case LIST -> {
        List<Object> list = new ArrayList<>();
        for (Object element : (List<?>) value) {
          list.add(toIceberg(type.asListType().elementType(), element));
        }
        yield list;
      }
      case MAP -> {
        Map<Object, Object> map = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((key, item) -> map.put(toIceberg(type.asMapType().keyType(), key),
            toIceberg(type.asMapType().valueType(), item)));
        yield map;
      }
      case STRUCT -> toRecord(type.asStructType(), (Row) value);
      default -> value;
    };
  }

  /** {@code value}, an Iceberg generic value of {@code type}, as the engine holds it. */
  static Object fromIceberg(Type type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type.typeId()) {
      case STRING -> value.toString();
      case BINARY -> ByteBuffers.toByteArray((ByteBuffer) value);
      case DATE -> (int) ((LocalDate) value).toEpochDay();
      case TIMESTAMP -> value instanceof OffsetDateTime zoned ? DateTimeUtil.microsFromTimestamptz(zoned)
          : DateTimeUtil.microsFromTimestamp((LocalDateTime) value);
      case LIST -> {
        List<Object> list = new ArrayList<>();
        for (Object element : (List<?>) value) {
          list.add(fromIceberg(type.asListType().elementType(), element));
        }
        yield list;
      }
      case MAP -> {
        Map<Object, Object> map = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((key, item) -> map.put(fromIceberg(type.asMapType().keyType(), key),
            fromIceberg(type.asMapType().valueType(), item)));
        yield map;
      }
      case STRUCT -> toRow(type.asStructType(), (Record) value, type.asStructType().fields().size());
      default -> value;
    };
  }
}
