package io.mergesink.ingest.decode;

import static io.mergesink.ingest.decode.LogicalTypes.*;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Maps Connect schemas, including Connect and Debezium logical types, to Delta types. The table
 * of record is in docs/cdc-semantics.md, "Type mapping"; in short:
 *
 * <table>
 *   <caption>Connect / Debezium type → Delta type</caption>
 *   <tr><td>int8, int16, int32, int64</td><td>byte, short, integer, long</td></tr>
 *   <tr><td>float32, float64, boolean, string, bytes</td><td>float, double, boolean, string, binary</td></tr>
 *   <tr><td>array, map, struct</td><td>array, map, struct (element nullability from the Connect schema)</td></tr>
 *   <tr><td>Connect Date, io.debezium.time.Date</td><td>date</td></tr>
 *   <tr><td>io.debezium.time.Timestamp, MicroTimestamp, NanoTimestamp</td><td>timestamp_ntz (wall clock of a
 *       column without time zone)</td></tr>
 *   <tr><td>Connect Timestamp, io.debezium.time.ZonedTimestamp</td><td>timestamp (an instant, UTC)</td></tr>
 *   <tr><td>Connect Time, io.debezium.time.Time, MicroTime, NanoTime</td><td>long: microseconds since
 *       midnight (Delta has no time type; NanoTime is floored to microseconds)</td></tr>
 *   <tr><td>io.debezium.time.ZonedTime</td><td>string (ISO-8601 as Debezium sends it)</td></tr>
 *   <tr><td>Connect Decimal</td><td>decimal(p, s) with p from {@code connect.decimal.precision}, else 38; a
 *       negative scale becomes scale 0 with p + |s| digits; p &gt; 38 → string (plain notation)</td></tr>
 *   <tr><td>io.debezium.data.VariableScaleDecimal</td><td>string (plain notation, with the scale the event
 *       carries): Delta decimals have a fixed scale, and rounding would lose digits. Debezium's PostgreSQL
 *       connector strips trailing zeros from these values, so PostgreSQL's {@code 1.50} arrives as
 *       {@code 1.5} and {@code 100} as scale 0</td></tr>
 *   <tr><td>io.debezium.data.Json, Uuid, Xml, Enum, … (string-based)</td><td>string</td></tr>
 *   <tr><td>any other logical type</td><td>its physical type</td></tr>
 * </table>
 *
 * Nullability follows {@code Schema.isOptional()}.
 */
public final class SchemaConverter {
  private static final int MAX_DECIMAL_PRECISION = DecimalType.MAX_PRECISION;

  private SchemaConverter() {}

  /**
   * The table schema of a Connect struct schema.
   *
   * @throws ConversionException when {@code schema} is not a struct or a field has no Delta type
   */
  public static StructType toStructType(Schema schema) {
    if (schema.type() != Schema.Type.STRUCT) {
      throw new ConversionException("expected a struct schema, found " + describe(schema));
    }
    List<StructField> fields = new ArrayList<>(schema.fields().size());
    for (Field field : schema.fields()) {
      fields.add(new StructField(field.name(), toDataType(field.schema()), field.schema().isOptional()));
    }
    return new StructType(fields);
  }

  /** The Delta type of a Connect schema. */
  public static DataType toDataType(Schema schema) {
    String name = schema.name();
    if (name != null) {
      DataType logical = logicalType(name, schema);
      if (logical != null) {
        return logical;
      }
    }
    return switch (schema.type()) {
      case INT8 -> PrimitiveType.BYTE;
      case INT16 -> PrimitiveType.SHORT;
      case INT32 -> PrimitiveType.INTEGER;
      case INT64 -> PrimitiveType.LONG;
      case FLOAT32 -> PrimitiveType.FLOAT;
      case FLOAT64 -> PrimitiveType.DOUBLE;
      case BOOLEAN -> PrimitiveType.BOOLEAN;
      case STRING -> PrimitiveType.STRING;
      case BYTES -> PrimitiveType.BINARY;
      case ARRAY -> new ArrayType(toDataType(schema.valueSchema()), schema.valueSchema().isOptional());
      case MAP -> new MapType(toDataType(schema.keySchema()), toDataType(schema.valueSchema()),
          schema.valueSchema().isOptional());
      case STRUCT -> toStructType(schema);
    };
  }

  private static DataType logicalType(String name, Schema schema) {
    return switch (name) {
      case CONNECT_DATE, DEBEZIUM_DATE -> PrimitiveType.DATE;
      case DEBEZIUM_TIMESTAMP, DEBEZIUM_MICRO_TIMESTAMP, DEBEZIUM_NANO_TIMESTAMP -> PrimitiveType.TIMESTAMP_NTZ;
      case CONNECT_TIMESTAMP, DEBEZIUM_ZONED_TIMESTAMP -> PrimitiveType.TIMESTAMP;
      case CONNECT_TIME, DEBEZIUM_TIME, DEBEZIUM_MICRO_TIME, DEBEZIUM_NANO_TIME -> PrimitiveType.LONG;
      case CONNECT_DECIMAL -> decimalType(schema).<DataType>map(t -> t).orElse(PrimitiveType.STRING);
      case DEBEZIUM_VARIABLE_SCALE_DECIMAL -> PrimitiveType.STRING;
      default -> null;
    };
  }

  /**
   * The Delta decimal type of a Connect Decimal schema, or empty when it needs more than 38
   * digits (the column is then a string).
   *
   * @throws ConversionException when the scale parameter is missing or not a number
   */
  public static Optional<DecimalType> decimalType(Schema schema) {
    Map<String, String> parameters = schema.parameters() == null ? Map.of() : schema.parameters();
    int scale = intParameter(schema, parameters, DECIMAL_SCALE_PARAMETER, null);
    int precision = intParameter(schema, parameters, DECIMAL_PRECISION_PARAMETER, MAX_DECIMAL_PRECISION);
    if (scale < 0) {
      precision -= scale;
      scale = 0;
    }
    precision = Math.max(precision, Math.max(scale, 1));
    return precision > MAX_DECIMAL_PRECISION ? Optional.empty() : Optional.of(new DecimalType(precision, scale));
  }

  private static int intParameter(Schema schema, Map<String, String> parameters, String key, Integer fallback) {
    String text = parameters.get(key);
    if (text == null) {
      if (fallback == null) {
        throw new ConversionException("decimal schema " + describe(schema) + " has no '" + key + "' parameter");
      }
      return fallback;
    }
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new ConversionException("decimal schema " + describe(schema) + " has a non-numeric '" + key
          + "' parameter: '" + text + "'", e);
    }
  }

  static String describe(Schema schema) {
    return schema.name() == null ? schema.type().getName() : schema.type().getName() + " (" + schema.name() + ")";
  }
}
