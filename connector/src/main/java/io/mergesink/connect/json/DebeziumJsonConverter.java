package io.mergesink.connect.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import io.mergesink.connect.MergeSinkConnector;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.ConverterConfig;
import org.apache.kafka.connect.storage.ConverterType;

/**
 * A drop-in for Kafka's {@link JsonConverter} with {@code schemas.enable=true} (Debezium's most
 * common setup) that gives the same Connect schemas and values for every record, and costs a
 * fraction of it: JsonConverter parses each record, embedded schema included (most of a Debezium
 * record's bytes), into a tree and hashes the schema's tree to find its cached Connect schema.
 * This converter recognises a schema by its bytes (the topic's last schema by a byte comparison,
 * others by a hash and a byte comparison, in a cache of {@code schemas.cache.size} schemas), parses
 * each distinct schema once, and decodes the payload with a streaming parser straight into the
 * schema's {@code Struct}s (docs/design.md, "JSON converter").
 *
 * <p>Takes JsonConverter's options ({@code schemas.enable}, {@code schemas.cache.size},
 * {@code schema.content}, {@code replace.null.with.default}, {@code decimal.format}). With
 * {@code schema.content} set, every record goes to JsonConverter: the option exists only in workers
 * from Kafka 4.2, and older workers' JsonConverter ignores it, so only JsonConverter itself gives
 * the worker's answer. A record
 * outside the shape JsonConverter writes (another JSON type than its schema says, a missing required
 * value, extra envelope members, invalid JSON) is converted by a JsonConverter with the same
 * options, so odd input gets exactly JsonConverter's result or error; so does
 * {@code schemas.enable=false}, and so does {@link #fromConnectData} (Connect calls it to write
 * records a task reports to the dead letter queue in the record's converter format).
 * JsonConverter comes from the worker's own libraries (connect-json is part of every Connect
 * runtime). Not thread-safe: Connect configures one converter per task.
 */
public final class DebeziumJsonConverter implements Converter, Versioned {
  private static final JsonNodeFactory EXACT_DECIMALS = JsonNodeFactory.withExactBigDecimals(true);
  /** Parses schemas as JsonConverter does: floats as BigDecimal (default values keep every digit), nothing after the value. */
  private static final ObjectMapper SCHEMA_MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .nodeFactory(EXACT_DECIMALS)
      .build();
  private static final JsonFactory PAYLOADS = SCHEMA_MAPPER.getFactory();

  private JsonConverter kafka;
  private boolean schemasEnabled;
  private SchemaParser schemaParser;
  private SchemaCache schemas;
  /** {@code schema.content} is set: JsonConverter converts every record. */
  private boolean fixedSchema;
  private long handedToKafka;

  @Override
  public String version() {
    return MergeSinkConnector.VERSION;
  }

  @Override
  public ConfigDef config() {
    return JsonConverterConfig.configDef();
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    JsonConverter delegate = new JsonConverter();
    delegate.configure(configs, isKey);
    Map<String, Object> typed = new HashMap<>(configs);
    typed.put(ConverterConfig.TYPE_CONFIG, (isKey ? ConverterType.KEY : ConverterType.VALUE).getName());
    JsonConverterConfig config = new JsonConverterConfig(typed);
    kafka = delegate;
    schemasEnabled = config.schemasEnabled();
    schemaParser = new SchemaParser(config.replaceNullWithDefault());
    schemas = new SchemaCache(config.schemaCacheSize());
    Object content = configs.get(JsonConverterConfig.SCHEMA_CONTENT_CONFIG);
    fixedSchema = content != null && !content.toString().isBlank();
  }

  /**
   * The record's schema and value, equal to what JsonConverter gives.
   *
   * @throws DataException as JsonConverter would
   */
  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    if (value == null) {
      return SchemaAndValue.NULL;
    }
    if (!schemasEnabled || fixedSchema) {
      return kafka.toConnectData(topic, value);
    }
    try {
      JsonEnvelope envelope = JsonEnvelope.locate(value, schemas.likelySchema(topic));
      SchemaCache.Entry entry = schemas.entry(topic, value, envelope.schemaStart(), envelope.schemaEnd(), this::parseSchema);
      return decode(entry, value, envelope.payloadStart(), envelope.payloadEnd());
    } catch (NotCanonical | IOException | DataException e) {
      handedToKafka++;
      return kafka.toConnectData(topic, value);
    }
  }

  /** Exactly JsonConverter's bytes for the schema and value. */
  @Override
  public byte[] fromConnectData(String topic, Schema schema, Object value) {
    return kafka.fromConnectData(topic, schema, value);
  }

  @Override
  public void close() {
    if (kafka != null) {
      kafka.close();
    }
  }

  /** How many records this converter left to JsonConverter because they were not in its shape. */
  long recordsHandedToKafka() {
    return handedToKafka;
  }

  /** How many distinct schemas it holds parsed. */
  int cachedSchemas() {
    return schemas.size();
  }

  private static SchemaAndValue decode(SchemaCache.Entry entry, byte[] bytes, int from, int to) throws IOException, NotCanonical {
    if (entry.reader() == null) {
      throw NotCanonical.INSTANCE;
    }
    try (JsonParser parser = PAYLOADS.createParser(bytes, from, to - from)) {
      parser.nextToken();
      Object value = entry.reader().read(parser);
      if (parser.nextToken() != null) {
        throw NotCanonical.INSTANCE;
      }
      return new SchemaAndValue(entry.schema(), value);
    }
  }

  /** Parses a schema once; a schema JsonConverter must judge gets an entry without reader. */
  private SchemaCache.Entry parseSchema(byte[] bytes, int from, int to) {
    byte[] copy = Arrays.copyOfRange(bytes, from, to);
    try {
      JsonNode json = SCHEMA_MAPPER.readTree(copy);
      Schema schema = schemaParser.parse(json);
      return new SchemaCache.Entry(copy, schema, ValueReaders.of(schema, schemaParser.replaceNullWithDefault()));
    } catch (NotCanonical | IOException | DataException e) {
      return new SchemaCache.Entry(copy, null, null);
    }
  }
}
