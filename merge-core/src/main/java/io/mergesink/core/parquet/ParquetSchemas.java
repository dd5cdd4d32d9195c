package io.mergesink.core.parquet;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.ColumnMapping;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigInteger;
import java.util.OptionalInt;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * The Parquet schema of a Delta table's data files, with the physical types Spark and Delta Kernel
 * write (Spark's {@code ParquetSchemaConverter} in its non-legacy mode), so that every Delta reader
 * reads our files:
 *
 * <pre>
 * boolean → BOOLEAN          byte → INT32 (INT(8))      short → INT32 (INT(16))
 * integer → INT32            long → INT64               float → FLOAT     double → DOUBLE
 * string → BINARY (STRING)   binary → BINARY            date → INT32 (DATE)
 * timestamp → INT64 (TIMESTAMP(MICROS, true))   timestamp_ntz → INT64 (TIMESTAMP(MICROS, false))
 * decimal(p,s) → INT32 when p ≤ 9, INT64 when p ≤ 18, else FIXED_LEN_BYTE_ARRAY of the fewest
 *                bytes that hold p digits; annotated DECIMAL(p,s)
 * array → &lt;name&gt; (LIST) { repeated group list { optional|required element } }
 * map → &lt;name&gt; (MAP) { repeated group key_value { required key; optional|required value } }
 * struct → group
 * </pre>
 *
 * A field is {@code required} when the Delta field (array element, map value) is not nullable. A
 * field whose metadata holds a column id (column mapping) carries it as its Parquet field id.
 */
public final class ParquetSchemas {
  /** Name of the root message; Spark's name, which some tools show. */
  public static final String MESSAGE_NAME = "spark_schema";
  /** Largest decimal precision stored as INT32 (Spark's {@code Decimal.MAX_INT_DIGITS}). */
  public static final int MAX_INT32_DECIMAL_PRECISION = 9;
  /** Largest decimal precision stored as INT64 (Spark's {@code Decimal.MAX_LONG_DIGITS}). */
  public static final int MAX_INT64_DECIMAL_PRECISION = 18;

  static final String LIST_REPEATED_NAME = "list";
  static final String LIST_ELEMENT_NAME = "element";
  static final String MAP_REPEATED_NAME = "key_value";
  static final String MAP_KEY_NAME = "key";
  static final String MAP_VALUE_NAME = "value";

  private static final int BITS_PER_BYTE = 8;

  private ParquetSchemas() {}

  /** The Parquet schema for data files of a table with {@code schema}. */
  public static MessageType toParquet(StructType schema) {
    Types.MessageTypeBuilder message = Types.buildMessage();
    for (StructField field : schema.fields()) {
      message.addField(toParquet(field));
    }
    return message.named(MESSAGE_NAME);
  }

  /**
   * Bytes of the FIXED_LEN_BYTE_ARRAY that holds every unscaled value of {@code precision} digits
   * as a big-endian two's complement number: the smallest n with 2^(8n-1) ≥ 10^precision.
   */
  public static int decimalByteLength(int precision) {
    BigInteger limit = BigInteger.TEN.pow(precision);
    int bytes = 1;
    while (BigInteger.ONE.shiftLeft(BITS_PER_BYTE * bytes - 1).compareTo(limit) < 0) {
      bytes++;
    }
    return bytes;
  }

  /** The field, with its column id ({@value ColumnMapping#ID_KEY}) as Parquet field id when it has one (PROTOCOL.md, "Writer Requirements for Column Mapping"). */
  private static Type toParquet(StructField field) {
    Type type = toParquet(field.name(), field.type(), repetition(field.nullable()));
    OptionalInt id = ColumnMapping.id(field);
    return id.isPresent() ? type.withId(id.getAsInt()) : type;
  }

  private static Type toParquet(String name, DataType type, Repetition repetition) {
    if (type instanceof PrimitiveType primitive) {
      return primitive(name, primitive, repetition);
    }
    if (type instanceof DecimalType decimal) {
      return decimal(name, decimal, repetition);
    }
    if (type instanceof ArrayType array) {
      return Types.buildGroup(repetition)
          .as(LogicalTypeAnnotation.listType())
          .addField(Types.repeatedGroup()
              .addField(toParquet(LIST_ELEMENT_NAME, array.elementType(), repetition(array.containsNull())))
              .named(LIST_REPEATED_NAME))
          .named(name);
    }
    if (type instanceof MapType map) {
      return Types.buildGroup(repetition)
          .as(LogicalTypeAnnotation.mapType())
          .addField(Types.repeatedGroup()
              .addField(toParquet(MAP_KEY_NAME, map.keyType(), Repetition.REQUIRED))
              .addField(toParquet(MAP_VALUE_NAME, map.valueType(), repetition(map.valueContainsNull())))
              .named(MAP_REPEATED_NAME))
          .named(name);
    }
    StructType struct = (StructType) type;
    if (struct.size() == 0) {
      throw new IllegalArgumentException(
          "struct column '" + name + "' has no fields; Parquet cannot store an empty group");
    }
    Types.GroupBuilder<org.apache.parquet.schema.GroupType> group = Types.buildGroup(repetition);
    for (StructField field : struct.fields()) {
      group.addField(toParquet(field));
    }
    return group.named(name);
  }

  private static Type primitive(String name, PrimitiveType type, Repetition repetition) {
    return switch (type) {
      case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
      case BYTE -> Types.primitive(PrimitiveTypeName.INT32, repetition)
          .as(LogicalTypeAnnotation.intType(Byte.SIZE, true)).named(name);
      case SHORT -> Types.primitive(PrimitiveTypeName.INT32, repetition)
          .as(LogicalTypeAnnotation.intType(Short.SIZE, true)).named(name);
      case INTEGER -> Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
      case LONG -> Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
      case FLOAT -> Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
      case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
      case STRING -> Types.primitive(PrimitiveTypeName.BINARY, repetition)
          .as(LogicalTypeAnnotation.stringType()).named(name);
      case BINARY -> Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
      case DATE -> Types.primitive(PrimitiveTypeName.INT32, repetition)
          .as(LogicalTypeAnnotation.dateType()).named(name);
      case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, repetition)
          .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS)).named(name);
      case TIMESTAMP_NTZ -> Types.primitive(PrimitiveTypeName.INT64, repetition)
          .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS)).named(name);
    };
  }

  private static Type decimal(String name, DecimalType type, Repetition repetition) {
    LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(type.scale(), type.precision());
    if (type.precision() <= MAX_INT32_DECIMAL_PRECISION) {
      return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation).named(name);
    }
    if (type.precision() <= MAX_INT64_DECIMAL_PRECISION) {
      return Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation).named(name);
    }
    return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
        .length(decimalByteLength(type.precision()))
        .as(annotation)
        .named(name);
  }

  private static Repetition repetition(boolean nullable) {
    return nullable ? Repetition.OPTIONAL : Repetition.REQUIRED;
  }
}
