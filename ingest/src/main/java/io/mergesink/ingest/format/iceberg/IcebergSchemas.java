package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.options.PartitionTransform;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The engine's column types and Iceberg's. Iceberg has no byte or short: they are stored as int.
 * Timestamps are Iceberg {@code timestamptz} (with zone) and {@code timestamp} (without), both in
 * microseconds, as the engine's are.
 */
final class IcebergSchemas {
  private IcebergSchemas() {}

  /**
   * An Iceberg schema of {@code schema} whose identifier fields are {@code key} (made required, as
   * Iceberg requires of identifier fields). Field ids are placeholders: a catalog assigns fresh ones
   * when it creates the table.
   */
  static Schema toIceberg(StructType schema, List<String> key) {
    AtomicInteger ids = new AtomicInteger(0);
    List<Types.NestedField> columns = new ArrayList<>();
    Set<Integer> identifiers = new HashSet<>();
    for (StructField field : schema.fields()) {
      int id = ids.incrementAndGet();
      boolean identifier = key.contains(field.name());
      if (identifier) {
        identifiers.add(id);
      }
      columns.add(Types.NestedField.of(id, field.nullable() && !identifier, field.name(), toIceberg(field.type(), ids)));
    }
    return new Schema(columns, identifiers);
  }

  /**
   * The partition spec of {@code fields} over {@code schema}; column names match case-insensitively,
   * as the engine's do.
   *
   * @throws IllegalArgumentException a field names a column the schema lacks, or a transform its type does not take
   */
  static PartitionSpec partitionSpec(Schema schema, List<PartitionField> fields) {
    PartitionSpec.Builder spec = PartitionSpec.builderFor(schema).caseSensitive(false);
    for (PartitionField field : fields) {
      String column = field.column();
      if (field.transform().isEmpty()) {
        spec.identity(column);
        continue;
      }
      PartitionTransform transform = field.transform().get();
      switch (transform.function()) {
        case YEAR -> spec.year(column);
        case MONTH -> spec.month(column);
        case DAY -> spec.day(column);
        case HOUR -> spec.hour(column);
        case BUCKET -> spec.bucket(column, transform.width().getAsInt());
        case TRUNCATE -> spec.truncate(column, transform.width().getAsInt());
      }
    }
    return spec.build();
  }

  /** The Iceberg type of {@code type}; nested fields take ids from {@code ids}. */
  static Type toIceberg(DataType type, AtomicInteger ids) {
    if (type instanceof PrimitiveType primitive) {
      return switch (primitive) {
        case BOOLEAN -> Types.BooleanType.get();
        case BYTE, SHORT, INTEGER -> Types.IntegerType.get();
        case LONG -> Types.LongType.get();
        case FLOAT -> Types.FloatType.get();
        case DOUBLE -> Types.DoubleType.get();
        case STRING -> Types.StringType.get();
        case BINARY -> Types.BinaryType.get();
        case DATE -> Types.DateType.get();
        case TIMESTAMP -> Types.TimestampType.withZone();
        case TIMESTAMP_NTZ -> Types.TimestampType.withoutZone();
      };
    }
    if (type instanceof DecimalType decimal) {
      return Types.DecimalType.of(decimal.precision(), decimal.scale());
    }
    if (type instanceof ArrayType array) {
      int elementId = ids.incrementAndGet();
      Type element = toIceberg(array.elementType(), ids);
      return array.containsNull() ? Types.ListType.ofOptional(elementId, element) : Types.ListType.ofRequired(elementId, element);
    }
    if (type instanceof MapType map) {
      int keyId = ids.incrementAndGet();
      int valueId = ids.incrementAndGet();
      Type keyType = toIceberg(map.keyType(), ids);
      Type valueType = toIceberg(map.valueType(), ids);
      return map.valueContainsNull() ? Types.MapType.ofOptional(keyId, valueId, keyType, valueType)
          : Types.MapType.ofRequired(keyId, valueId, keyType, valueType);
    }
    StructType struct = (StructType) type;
    List<Types.NestedField> fields = new ArrayList<>();
    for (StructField field : struct.fields()) {
      int id = ids.incrementAndGet();
      fields.add(Types.NestedField.of(id, field.nullable(), field.name(), toIceberg(field.type(), ids)));
    }
    return Types.StructType.of(fields);
  }

  /** The engine's schema of an Iceberg schema. */
  static StructType fromIceberg(Schema schema) {
    return fromIceberg(schema.asStruct());
  }

  private static StructType fromIceberg(Types.StructType struct) {
    List<StructField> fields = new ArrayList<>();
    for (Types.NestedField field : struct.fields()) {
      fields.add(new StructField(field.name(), fromIceberg(field.type()), field.isOptional()));
    }
    return new StructType(fields);
  }

  /**
   * @throws IllegalArgumentException a type the engine has no counterpart of (time, uuid, fixed,
   *     variant, geometry, nanosecond timestamps); the message names it
   */
  static DataType fromIceberg(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN -> PrimitiveType.BOOLEAN;
      case INTEGER -> PrimitiveType.INTEGER;
      case LONG -> PrimitiveType.LONG;
      case FLOAT -> PrimitiveType.FLOAT;
      case DOUBLE -> PrimitiveType.DOUBLE;
      case STRING -> PrimitiveType.STRING;
      case BINARY -> PrimitiveType.BINARY;
      case DATE -> PrimitiveType.DATE;
      case TIMESTAMP -> ((Types.TimestampType) type).shouldAdjustToUTC() ? PrimitiveType.TIMESTAMP : PrimitiveType.TIMESTAMP_NTZ;
      case DECIMAL -> new DecimalType(((Types.DecimalType) type).precision(), ((Types.DecimalType) type).scale());
      case LIST -> new ArrayType(fromIceberg(type.asListType().elementType()), type.asListType().isElementOptional());
      case MAP -> new MapType(fromIceberg(type.asMapType().keyType()), fromIceberg(type.asMapType().valueType()),
          type.asMapType().isValueOptional());
      case STRUCT -> fromIceberg(type.asStructType());
      default -> throw new IllegalArgumentException("Iceberg type " + type + " has no counterpart in MergeSink's rows");
    };
  }
}
