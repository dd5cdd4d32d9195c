package io.mergesink.ingest.format.paimon;

import io.mergesink.core.data.Row;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.DataGetters;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

/**
 * The engine's rows and Paimon's internal rows. Values follow the engine's in-memory types
 * ({@link io.mergesink.core.types.DataType}) on one side and Paimon's internal ones on the other:
 * strings as {@link BinaryString}, timestamps as {@link Timestamp}, decimals as {@link Decimal},
 * lists, maps and nested rows as {@link GenericArray}, {@link GenericMap} and {@link GenericRow};
 * numbers, booleans, dates (days) and bytes are the same.
 */
final class PaimonRows {
  private PaimonRows() {}

  /** {@code row}, whose values are in the order of {@code rowType}'s fields, as a Paimon row of kind {@code kind}. */
  static GenericRow toPaimon(RowType rowType, Row row, RowKind kind) {
    List<DataField> fields = rowType.getFields();
    GenericRow paimon = new GenericRow(kind, fields.size());
    for (int i = 0; i < fields.size(); i++) {
      paimon.setField(i, toPaimon(fields.get(i).type(), row.get(i)));
    }
    return paimon;
  }

  /** {@code value}, as the engine holds it, as Paimon holds a value of {@code type}. */
  static Object toPaimon(DataType type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type.getTypeRoot()) {
      case TINYINT -> ((Number) value).byteValue();
      case SMALLINT -> ((Number) value).shortValue();
      case INTEGER, DATE -> ((Number) value).intValue();
      case BIGINT -> ((Number) value).longValue();
      case FLOAT -> ((Number) value).floatValue();
      case DOUBLE -> ((Number) value).doubleValue();
      case VARCHAR, CHAR -> BinaryString.fromString(value.toString());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_WITHOUT_TIME_ZONE -> Timestamp.fromMicros((Long) value);
      case DECIMAL -> Decimal.fromBigDecimal((BigDecimal) value, ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale());
      case ARRAY -> {
        DataType element = ((ArrayType) type).getElementType();
        yield new GenericArray(((List<?>) value).stream().map(item -> toPaimon(element, item)).toArray());
      }
      case MAP -> {
        MapType map = (MapType) type;
        Map<Object, Object> entries = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((key, item) -> entries.put(toPaimon(map.getKeyType(), key), toPaimon(map.getValueType(), item)));
        yield new GenericMap(entries);
      }
      case ROW -> toPaimon((RowType) type, (Row) value, RowKind.INSERT);
      default -> value;
    };
  }

  /** The fields of {@code row}, of the types {@code rowType} lists, as a row of the engine. */
  static Row fromPaimon(RowType rowType, InternalRow row) {
    List<DataField> fields = rowType.getFields();
    Object[] values = new Object[fields.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.isNullAt(i) ? null : fromPaimon(fields.get(i).type(), row, i);
    }
    return Row.of(values);
  }

  /** The value at {@code pos} of a row or an array, not null, as the engine holds it. */
  private static Object fromPaimon(DataType type, DataGetters row, int pos) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> row.getBoolean(pos);
      case TINYINT -> row.getByte(pos);
      case SMALLINT -> row.getShort(pos);
      case INTEGER, DATE -> row.getInt(pos);
      case BIGINT -> row.getLong(pos);
      case FLOAT -> row.getFloat(pos);
      case DOUBLE -> row.getDouble(pos);
      case VARCHAR, CHAR -> row.getString(pos).toString();
      case VARBINARY, BINARY -> row.getBinary(pos);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_WITHOUT_TIME_ZONE -> row.getTimestamp(pos, timestampPrecision(type)).toMicros();
      case DECIMAL -> row.getDecimal(pos, ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale()).toBigDecimal();
      case ARRAY -> fromPaimon(((ArrayType) type).getElementType(), row.getArray(pos));
      case MAP -> {
        MapType mapType = (MapType) type;
        InternalMap map = row.getMap(pos);
        List<Object> keys = fromPaimon(mapType.getKeyType(), map.keyArray());
        List<Object> values = fromPaimon(mapType.getValueType(), map.valueArray());
        Map<Object, Object> entries = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
          entries.put(keys.get(i), values.get(i));
        }
        yield entries;
      }
      case ROW -> fromPaimon((RowType) type, row.getRow(pos, ((RowType) type).getFieldCount()));
      default -> throw new IllegalArgumentException("Paimon type " + type + " has no counterpart in MergeSink's rows");
    };
  }

  private static List<Object> fromPaimon(DataType elementType, InternalArray array) {
    List<Object> items = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      items.add(array.isNullAt(i) ? null : fromPaimon(elementType, array, i));
    }
    return items;
  }

  private static int timestampPrecision(DataType type) {
    return type instanceof org.apache.paimon.types.LocalZonedTimestampType zoned ? zoned.getPrecision()
        : ((org.apache.paimon.types.TimestampType) type).getPrecision();
  }
}
