package io.mergesink.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * The Avro schema of a Connect schema, as {@link AvroBinaryConverter} writes it. Maps only what the
 * bench's Debezium events use: named structs (records), {@code int32}, {@code int64} (Debezium's
 * {@code MicroTimestamp} is an {@code int64} too), strings and Connect {@code Decimal}s with a
 * {@code connect.decimal.precision} (Avro {@code bytes} with the decimal logical type); an
 * optional schema becomes a union with {@code null}, null first, as Confluent's AvroData writes it.
 * Anything else is refused.
 */
final class AvroSchemas {
  private static final String PRECISION_PARAMETER = "connect.decimal.precision";
  private static final String CONNECT_LOGICAL_PREFIX = "org.apache.kafka.connect.data.";
  private static final String SUPPORTED = "named STRUCT, INT32, INT64, STRING and Decimal with " + PRECISION_PARAMETER;

  /** Records by full name: Avro defines a named type once; later uses refer to the same schema. */
  private final Map<String, org.apache.avro.Schema> records = new HashMap<>();
  private final Map<String, Schema> recordSources = new HashMap<>();

  private AvroSchemas() {}

  /**
   * @throws IllegalArgumentException the schema uses a type outside {@value #SUPPORTED}, or two
   *     different structs share a name
   */
  static org.apache.avro.Schema of(Schema connect) {
    return new AvroSchemas().map(connect, connect.name() == null ? "(root)" : connect.name());
  }

  private org.apache.avro.Schema map(Schema connect, String path) {
    org.apache.avro.Schema avro = required(connect, path);
    return connect.isOptional() ? org.apache.avro.Schema.createUnion(org.apache.avro.Schema.create(org.apache.avro.Schema.Type.NULL), avro)
        : avro;
  }

  private org.apache.avro.Schema required(Schema connect, String path) {
    if (Decimal.LOGICAL_NAME.equals(connect.name())) {
      return decimal(connect, path);
    }
    if (connect.name() != null && connect.name().startsWith(CONNECT_LOGICAL_PREFIX)) {
      throw unsupported(connect, path); // Date, Time, Timestamp hold java.util.Date, not the base type's value
    }
    return switch (connect.type()) {
      case STRUCT -> record(connect, path);
      case INT32 -> org.apache.avro.Schema.create(org.apache.avro.Schema.Type.INT);
      case INT64 -> org.apache.avro.Schema.create(org.apache.avro.Schema.Type.LONG);
      case STRING -> {
        org.apache.avro.Schema string = org.apache.avro.Schema.create(org.apache.avro.Schema.Type.STRING);
        // read back as java.lang.String, the type Connect structs hold, not Avro's Utf8
        GenericData.setStringType(string, GenericData.StringType.String);
        yield string;
      }
      default -> throw unsupported(connect, path);
    };
  }

  private org.apache.avro.Schema record(Schema connect, String path) {
    if (connect.name() == null) {
      throw unsupported(connect, path);
    }
    org.apache.avro.Schema known = records.get(connect.name());
    if (known != null) {
      if (!recordSources.get(connect.name()).equals(connect)) {
        throw new IllegalArgumentException("two different Connect structs named " + connect.name() + " (at " + path
            + "): Avro needs one schema per name");
      }
      return known;
    }
    int dot = connect.name().lastIndexOf('.');
    org.apache.avro.Schema record = org.apache.avro.Schema.createRecord(connect.name().substring(dot + 1), connect.doc(),
        dot < 0 ? null : connect.name().substring(0, dot), false);
    records.put(connect.name(), record);
    recordSources.put(connect.name(), connect);
    List<org.apache.avro.Schema.Field> fields = new ArrayList<>();
    for (Field field : connect.fields()) {
      org.apache.avro.Schema type = map(field.schema(), path + "." + field.name());
      Object defaultValue = field.schema().isOptional() ? JsonProperties.NULL_VALUE : null;
      fields.add(new org.apache.avro.Schema.Field(field.name(), type, null, defaultValue));
    }
    record.setFields(fields);
    return record;
  }

  private static org.apache.avro.Schema decimal(Schema connect, String path) {
    String precision = connect.parameters() == null ? null : connect.parameters().get(PRECISION_PARAMETER);
    if (precision == null) {
      throw new IllegalArgumentException("Decimal at " + path + " has no " + PRECISION_PARAMETER
          + " parameter; the bench's Avro converter needs it for the Avro decimal's precision");
    }
    int scale = Integer.parseInt(connect.parameters().get(Decimal.SCALE_FIELD));
    return LogicalTypes.decimal(Integer.parseInt(precision), scale).addToSchema(org.apache.avro.Schema.create(org.apache.avro.Schema.Type.BYTES));
  }

  private static IllegalArgumentException unsupported(Schema connect, String path) {
    return new IllegalArgumentException("the bench's Avro converter maps only " + SUPPORTED + "; " + path + " is "
        + connect.type() + (connect.name() == null ? " without a name" : " named " + connect.name()));
  }
}
