package io.mergesink.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;

/**
 * A Connect {@link Converter} that writes Avro binary and reads it back into {@link Struct}s, the
 * e2e suite's stand-in for Confluent's AvroConverter (not on Maven Central). There is no schema
 * registry: the Connect schema is known out of band, named by {@value #SCHEMA_CONFIG} (a schema of
 * {@link DebeziumEvents}), and the Avro schema is derived from it ({@link AvroSchemas}). The bytes
 * are plain Avro binary, Avro's own {@link GenericDatumWriter}/{@link GenericDatumReader}; unlike
 * Confluent's wire format they carry no 5-byte magic-and-schema-id prefix. The sink gets the same
 * Structs (same Connect schema, same values) as behind AvroConverter.
 *
 * <p>Not thread-safe (it reuses its encoder and decoder): Connect gives each task its own converters.
 */
public final class AvroBinaryConverter implements Converter {
  /** The name of the Connect schema of the records, e.g. {@code pg.public.customers.Envelope}. */
  public static final String SCHEMA_CONFIG = "connect.schema";
  private static final int INITIAL_BUFFER_BYTES = 512;

  private Schema connectSchema;
  private GenericDatumWriter<Object> writer;
  private GenericDatumReader<Object> reader;
  private org.apache.avro.Schema avroSchema;
  private BinaryEncoder encoder;
  private BinaryDecoder decoder;

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    Object name = configs.get(SCHEMA_CONFIG);
    if (name == null) {
      throw new DataException(getClass().getSimpleName() + " needs " + SCHEMA_CONFIG + " (the Connect schema's name)");
    }
    connectSchema = DebeziumEvents.schema(name.toString());
    avroSchema = AvroSchemas.of(connectSchema);
    GenericData data = new GenericData();
    data.addLogicalTypeConversion(new Conversions.DecimalConversion());
    writer = new GenericDatumWriter<>(avroSchema, data);
    reader = new GenericDatumReader<>(avroSchema, avroSchema, data);
  }

  @Override
  public byte[] fromConnectData(String topic, Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    if (schema != connectSchema && !connectSchema.equals(schema)) {
      throw new DataException("topic " + topic + ": record schema " + schema.name() + " is not the configured " + SCHEMA_CONFIG + " "
          + connectSchema.name());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(INITIAL_BUFFER_BYTES);
    encoder = EncoderFactory.get().binaryEncoder(out, encoder);
    try {
      writer.write(toAvro(connectSchema, avroSchema, value), encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new DataException("cannot write a record of topic " + topic + " as Avro", e);
    }
    return out.toByteArray();
  }

  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    if (value == null) {
      return SchemaAndValue.NULL;
    }
    decoder = DecoderFactory.get().binaryDecoder(value, decoder);
    try {
      return new SchemaAndValue(connectSchema, toConnect(connectSchema, reader.read(null, decoder)));
    } catch (IOException | RuntimeException e) {
      throw new DataException("cannot read a record of topic " + topic + " as Avro " + avroSchema.getFullName(), e);
    }
  }

  /** Structs become records; every other value (Long, Integer, String, BigDecimal) is written as is. */
  private static Object toAvro(Schema connect, org.apache.avro.Schema avro, Object value) {
    if (value == null || connect.type() != Schema.Type.STRUCT) {
      return value;
    }
    org.apache.avro.Schema recordSchema = nonNull(avro);
    Struct struct = (Struct) value;
    GenericData.Record record = new GenericData.Record(recordSchema);
    for (Field field : connect.fields()) {
      record.put(field.name(), toAvro(field.schema(), recordSchema.getField(field.name()).schema(), struct.get(field)));
    }
    return record;
  }

  private static Object toConnect(Schema connect, Object value) {
    if (value == null || connect.type() != Schema.Type.STRUCT) {
      return value;
    }
    GenericRecord record = (GenericRecord) value;
    Struct struct = new Struct(connect);
    for (Field field : connect.fields()) {
      struct.put(field, toConnect(field.schema(), record.get(field.name())));
    }
    return struct;
  }

  /** The record of an optional struct's {@code [null, record]} union. */
  private static org.apache.avro.Schema nonNull(org.apache.avro.Schema avro) {
    return avro.getType() == org.apache.avro.Schema.Type.UNION ? avro.getTypes().get(1) : avro;
  }
}
