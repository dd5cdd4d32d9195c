package io.mergesink.core.parquet;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes {@link Row}s through Parquet's {@link RecordConsumer} in the layout of
 * {@link ParquetSchemas#toParquet}. The per-type writers are built once per file, so writing a row
 * does no type dispatch beyond one virtual call per value.
 *
 * <p>A row that does not fit the schema (wrong size, wrong Java class, null in a required field,
 * a decimal that needs rounding or more digits) throws {@link IllegalArgumentException} naming the
 * column; the record may then be half written, so the caller must discard the file.
 */
final class RowWriteSupport extends WriteSupport<Row> {
  private final StructType schema;
  private final MessageType parquetSchema;
  private final FieldWriter[] fields;
  private RecordConsumer consumer;

  RowWriteSupport(StructType schema) {
    this.schema = schema;
    this.parquetSchema = ParquetSchemas.toParquet(schema);
    this.fields = fieldWriters(schema, "");
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(parquetSchema, Map.of());
  }

  @Override
  public WriteContext init(ParquetConfiguration configuration) {
    return new WriteContext(parquetSchema, Map.of());
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public String getName() {
    return "mergesink";
  }

  @Override
  public void write(Row row) {
    if (row.size() != fields.length) {
      throw new IllegalArgumentException("row has " + row.size() + " values but the schema has "
          + fields.length + " columns " + schema.fieldNames());
    }
    consumer.startMessage();
    writeFields(consumer, fields, row);
    consumer.endMessage();
  }

  private static void writeFields(RecordConsumer consumer, FieldWriter[] fields, Row row) {
    for (int i = 0; i < fields.length; i++) {
      fields[i].write(consumer, row.get(i));
    }
  }

  /** Writes one non-null value of a type. */
  @FunctionalInterface
  private interface ValueWriter {
    void write(RecordConsumer consumer, Object value);
  }

  /** Writes a named field of a group: nothing when null, else startField, value, endField. */
  private record FieldWriter(String name, int index, boolean nullable, DataType type, String column,
                             ValueWriter writer) {
    void write(RecordConsumer consumer, Object value) {
      if (value == null) {
        if (!nullable) {
          throw new IllegalArgumentException("column '" + column + "' is not nullable but the row holds null");
        }
        return;
      }
      consumer.startField(name, index);
      try {
        writer.write(consumer, value);
      } catch (ClassCastException e) {
        throw new IllegalArgumentException("column '" + column + "' of type " + type
            + " cannot hold a value of " + value.getClass().getName() + " (" + e.getMessage() + ")", e);
      }
      consumer.endField(name, index);
    }
  }

  private static FieldWriter[] fieldWriters(StructType struct, String prefix) {
    FieldWriter[] writers = new FieldWriter[struct.size()];
    for (int i = 0; i < writers.length; i++) {
      StructField field = struct.field(i);
      String column = prefix + field.name();
      writers[i] = new FieldWriter(field.name(), i, field.nullable(), field.type(), column,
          valueWriter(field.type(), column));
    }
    return writers;
  }

  private static ValueWriter valueWriter(DataType type, String column) {
    if (type instanceof PrimitiveType primitive) {
      return primitiveWriter(primitive);
    }
    if (type instanceof DecimalType decimal) {
      return decimalWriter(decimal, column);
    }
    if (type instanceof ArrayType array) {
      return listWriter(array, column);
    }
    if (type instanceof MapType map) {
      return mapWriter(map, column);
    }
    FieldWriter[] nested = fieldWriters((StructType) type, column + ".");
    return (consumer, value) -> {
      Row row = (Row) value;
      if (row.size() != nested.length) {
        throw new IllegalArgumentException("struct column '" + column + "' has " + nested.length
            + " fields but the value has " + row.size());
      }
      consumer.startGroup();
      writeFields(consumer, nested, row);
      consumer.endGroup();
    };
  }

  private static ValueWriter primitiveWriter(PrimitiveType type) {
    return switch (type) {
      case BOOLEAN -> (consumer, value) -> consumer.addBoolean((Boolean) value);
      case BYTE -> (consumer, value) -> consumer.addInteger((Byte) value);
      case SHORT -> (consumer, value) -> consumer.addInteger((Short) value);
      case INTEGER, DATE -> (consumer, value) -> consumer.addInteger((Integer) value);
      case LONG, TIMESTAMP, TIMESTAMP_NTZ -> (consumer, value) -> consumer.addLong((Long) value);
      case FLOAT -> (consumer, value) -> consumer.addFloat((Float) value);
      case DOUBLE -> (consumer, value) -> consumer.addDouble((Double) value);
      case STRING -> (consumer, value) -> consumer.addBinary(Binary.fromString((String) value));
      case BINARY -> (consumer, value) -> consumer.addBinary(Binary.fromConstantByteArray((byte[]) value));
    };
  }

  private static ValueWriter decimalWriter(DecimalType type, String column) {
    if (type.precision() <= ParquetSchemas.MAX_INT32_DECIMAL_PRECISION) {
      return (consumer, value) -> consumer.addInteger(unscaled(value, type, column).intValueExact());
    }
    if (type.precision() <= ParquetSchemas.MAX_INT64_DECIMAL_PRECISION) {
      return (consumer, value) -> consumer.addLong(unscaled(value, type, column).longValueExact());
    }
    int length = ParquetSchemas.decimalByteLength(type.precision());
    return (consumer, value) -> consumer.addBinary(
        Binary.fromConstantByteArray(Decimals.toFixedBytes(unscaled(value, type, column), length)));
  }

  /** The unscaled value at the type's scale; fails rather than round or overflow. */
  private static BigInteger unscaled(Object value, DecimalType type, String column) {
    BigDecimal decimal = (BigDecimal) value;
    BigDecimal scaled;
    try {
      scaled = decimal.setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("column '" + column + "' of type " + type + " cannot hold "
          + decimal.toPlainString() + " without rounding", e);
    }
    if (scaled.precision() > type.precision()) {
      throw new IllegalArgumentException("column '" + column + "' of type " + type + " cannot hold "
          + decimal.toPlainString() + ": it has " + scaled.precision() + " digits");
    }
    return scaled.unscaledValue();
  }

  private static ValueWriter listWriter(ArrayType type, String column) {
    String elementColumn = column + "." + ParquetSchemas.LIST_ELEMENT_NAME;
    ValueWriter element = valueWriter(type.elementType(), elementColumn);
    return (consumer, value) -> {
      List<?> list = (List<?>) value;
      consumer.startGroup();
      if (!list.isEmpty()) {
        consumer.startField(ParquetSchemas.LIST_REPEATED_NAME, 0);
        for (Object item : list) {
          consumer.startGroup();
          if (item != null) {
            consumer.startField(ParquetSchemas.LIST_ELEMENT_NAME, 0);
            element.write(consumer, item);
            consumer.endField(ParquetSchemas.LIST_ELEMENT_NAME, 0);
          } else if (!type.containsNull()) {
            throw new IllegalArgumentException("array column '" + column + "' does not allow null elements");
          }
          consumer.endGroup();
        }
        consumer.endField(ParquetSchemas.LIST_REPEATED_NAME, 0);
      }
      consumer.endGroup();
    };
  }

  private static ValueWriter mapWriter(MapType type, String column) {
    ValueWriter keyWriter = valueWriter(type.keyType(), column + "." + ParquetSchemas.MAP_KEY_NAME);
    ValueWriter valueWriter = valueWriter(type.valueType(), column + "." + ParquetSchemas.MAP_VALUE_NAME);
    return (consumer, value) -> {
      Map<?, ?> map = (Map<?, ?>) value;
      consumer.startGroup();
      if (!map.isEmpty()) {
        consumer.startField(ParquetSchemas.MAP_REPEATED_NAME, 0);
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          if (entry.getKey() == null) {
            throw new IllegalArgumentException("map column '" + column + "' holds a null key");
          }
          consumer.startGroup();
          consumer.startField(ParquetSchemas.MAP_KEY_NAME, 0);
          keyWriter.write(consumer, entry.getKey());
          consumer.endField(ParquetSchemas.MAP_KEY_NAME, 0);
          if (entry.getValue() != null) {
            consumer.startField(ParquetSchemas.MAP_VALUE_NAME, 1);
            valueWriter.write(consumer, entry.getValue());
            consumer.endField(ParquetSchemas.MAP_VALUE_NAME, 1);
          } else if (!type.valueContainsNull()) {
            throw new IllegalArgumentException("map column '" + column + "' does not allow null values");
          }
          consumer.endGroup();
        }
        consumer.endField(ParquetSchemas.MAP_REPEATED_NAME, 0);
      }
      consumer.endGroup();
    };
  }
}
