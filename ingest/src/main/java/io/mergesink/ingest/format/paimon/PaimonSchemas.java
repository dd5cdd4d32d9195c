package io.mergesink.ingest.format.paimon;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;

/**
 * The engine's column types and Paimon's. Timestamps are Paimon {@code TIMESTAMP_LTZ(6)} (an instant,
 * the engine's {@code timestamp}) and {@code TIMESTAMP(6)} (a local date-time, {@code timestamp_ntz}),
 * both in microseconds as the engine's are. Arrays, maps and structs are Paimon's {@code ARRAY},
 * {@code MAP} (keys never null) and {@code ROW}; the field ids of nested fields are assigned by
 * Paimon's schema builder and schema manager, so the ids given here are placeholders.
 */
final class PaimonSchemas {
  private static final int MICROS_PRECISION = 6;

  private PaimonSchemas() {}

  /**
   * The Paimon type of {@code type}, nullable or not; {@code column} names the column in messages.
   */
  static org.apache.paimon.types.DataType toPaimon(String column, DataType type, boolean nullable) {
    org.apache.paimon.types.DataType paimon;
    if (type instanceof PrimitiveType primitive) {
      paimon = switch (primitive) {
        case BOOLEAN -> DataTypes.BOOLEAN();
        case BYTE -> DataTypes.TINYINT();
        case SHORT -> DataTypes.SMALLINT();
        case INTEGER -> DataTypes.INT();
        case LONG -> DataTypes.BIGINT();
        case FLOAT -> DataTypes.FLOAT();
        case DOUBLE -> DataTypes.DOUBLE();
        case STRING -> DataTypes.STRING();
        case BINARY -> DataTypes.BYTES();
        case DATE -> DataTypes.DATE();
        case TIMESTAMP -> DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(MICROS_PRECISION);
        case TIMESTAMP_NTZ -> DataTypes.TIMESTAMP(MICROS_PRECISION);
      };
    } else if (type instanceof DecimalType decimal) {
      paimon = DataTypes.DECIMAL(decimal.precision(), decimal.scale());
    } else if (type instanceof ArrayType array) {
      paimon = DataTypes.ARRAY(toPaimon(column, array.elementType(), array.containsNull()));
    } else if (type instanceof MapType map) {
      paimon = DataTypes.MAP(toPaimon(column, map.keyType(), false), toPaimon(column, map.valueType(), map.valueContainsNull()));
    } else {
      StructType struct = (StructType) type;
      List<DataField> fields = new ArrayList<>();
      for (StructField field : struct.fields()) {
        fields.add(new DataField(fields.size(), field.name(), toPaimon(column + "." + field.name(), field.type(), field.nullable())));
      }
      paimon = DataTypes.ROW(fields.toArray(DataField[]::new));
    }
    return paimon.copy(nullable);
  }

  /** The engine's schema of a Paimon row type. */
  static StructType fromPaimon(RowType rowType) {
    List<StructField> fields = new ArrayList<>();
    for (DataField field : rowType.getFields()) {
      fields.add(new StructField(field.name(), fromPaimon(field.name(), field.type()), field.type().isNullable()));
    }
    return new StructType(fields);
  }

  /**
   * @throws IllegalArgumentException a type the engine does not read from Paimon tables (time,
   *     multiset, variant, ...); the message names the column
   */
  static DataType fromPaimon(String column, org.apache.paimon.types.DataType type) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> PrimitiveType.BOOLEAN;
      case TINYINT -> PrimitiveType.BYTE;
      case SMALLINT -> PrimitiveType.SHORT;
      case INTEGER -> PrimitiveType.INTEGER;
      case BIGINT -> PrimitiveType.LONG;
      case FLOAT -> PrimitiveType.FLOAT;
      case DOUBLE -> PrimitiveType.DOUBLE;
      case VARCHAR, CHAR -> PrimitiveType.STRING;
      case VARBINARY, BINARY -> PrimitiveType.BINARY;
      case DATE -> PrimitiveType.DATE;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> PrimitiveType.TIMESTAMP;
      case TIMESTAMP_WITHOUT_TIME_ZONE -> PrimitiveType.TIMESTAMP_NTZ;
      case DECIMAL -> new DecimalType(((org.apache.paimon.types.DecimalType) type).getPrecision(),
          ((org.apache.paimon.types.DecimalType) type).getScale());
      case ARRAY -> {
        org.apache.paimon.types.DataType element = ((org.apache.paimon.types.ArrayType) type).getElementType();
        yield new ArrayType(fromPaimon(column, element), element.isNullable());
      }
      case MAP -> {
        org.apache.paimon.types.MapType map = (org.apache.paimon.types.MapType) type;
        yield new MapType(fromPaimon(column, map.getKeyType()), fromPaimon(column, map.getValueType()),
            map.getValueType().isNullable());
      }
      case ROW -> fromPaimon((RowType) type);
      default -> throw new IllegalArgumentException("column '" + column + "' of Paimon type " + type
          + " has no counterpart in MergeSink's rows");
    };
  }
}
