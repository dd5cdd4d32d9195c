package io.mergesink.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;

/**
 * Connect schemas from the JSON schemas JsonConverter embeds ({@code type}, {@code optional},
 * {@code name}, {@code version}, {@code doc}, {@code parameters}, {@code default}; {@code fields}
 * of a struct with their {@code field} names, {@code items} of an array, {@code keys} and
 * {@code values} of a map), built with {@link SchemaBuilder} as JsonConverter builds them, so that
 * the schemas are equal. A schema JsonConverter would reject is {@link NotCanonical}: the records
 * that carry it go to JsonConverter, which gives its own error.
 */
final class SchemaParser {
  private final boolean replaceNullWithDefault;

  /** @param replaceNullWithDefault JsonConverter's {@code replace.null.with.default}, which also applies to default values */
  SchemaParser(boolean replaceNullWithDefault) {
    this.replaceNullWithDefault = replaceNullWithDefault;
  }

  boolean replaceNullWithDefault() {
    return replaceNullWithDefault;
  }

  /**
   * The Connect schema of {@code json}; null for a JSON null (the payload is schemaless).
   *
   * @throws NotCanonical JsonConverter would reject the schema
   */
  Schema parse(JsonNode json) throws NotCanonical {
    if (json.isNull()) {
      return null;
    }
    JsonNode type = json.get("type");
    if (type == null || !type.isTextual()) {
      throw NotCanonical.INSTANCE;
    }
    SchemaBuilder builder = switch (type.textValue()) {
      case "boolean" -> SchemaBuilder.bool();
      case "int8" -> SchemaBuilder.int8();
      case "int16" -> SchemaBuilder.int16();
      case "int32" -> SchemaBuilder.int32();
      case "int64" -> SchemaBuilder.int64();
      case "float" -> SchemaBuilder.float32();
      case "double" -> SchemaBuilder.float64();
      case "bytes" -> SchemaBuilder.bytes();
      case "string" -> SchemaBuilder.string();
      case "array" -> SchemaBuilder.array(parse(present(json.get("items"))));
      case "map" -> SchemaBuilder.map(parse(required(json.get("keys"))), parse(required(json.get("values"))));
      case "struct" -> struct(json.get("fields"));
      default -> throw NotCanonical.INSTANCE;
    };
    JsonNode optional = json.get("optional");
    if (optional != null && optional.isBoolean() && optional.booleanValue()) {
      builder.optional();
    } else {
      builder.required();
    }
    JsonNode name = json.get("name");
    if (name != null && name.isTextual()) {
      builder.name(name.textValue());
    }
    JsonNode version = json.get("version");
    if (version != null && version.isIntegralNumber()) {
      builder.version(version.intValue());
    }
    JsonNode doc = json.get("doc");
    if (doc != null && doc.isTextual()) {
      builder.doc(doc.textValue());
    }
    JsonNode parameters = json.get("parameters");
    if (parameters != null && parameters.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = parameters.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> parameter = it.next();
        if (!parameter.getValue().isTextual()) {
          throw NotCanonical.INSTANCE;
        }
        builder.parameter(parameter.getKey(), parameter.getValue().textValue());
      }
    }
    JsonNode defaultValue = json.get("default");
    if (defaultValue != null) {
      builder.defaultValue(defaultOf(builder, defaultValue));
    }
    return builder.build();
  }

  private SchemaBuilder struct(JsonNode fields) throws NotCanonical {
    if (fields == null || !fields.isArray()) {
      throw NotCanonical.INSTANCE;
    }
    SchemaBuilder struct = SchemaBuilder.struct();
    for (JsonNode field : fields) {
      JsonNode name = field.get("field");
      if (name == null || !name.isTextual()) {
        throw NotCanonical.INSTANCE;
      }
      struct.field(name.asText(), parse(field));
    }
    return struct;
  }

  /**
   * A default value, read as JsonConverter reads it: against the schema built so far (its type,
   * name, parameters and optionality, no default yet).
   */
  private Object defaultOf(SchemaBuilder builder, JsonNode json) throws NotCanonical {
    try (JsonParser parser = json.traverse()) {
      parser.nextToken();
      return ValueReaders.of(builder, replaceNullWithDefault).read(parser);
    } catch (IOException | DataException e) {
      throw NotCanonical.INSTANCE;
    }
  }

  private static JsonNode present(JsonNode json) throws NotCanonical {
    if (json == null || json.isNull()) {
      throw NotCanonical.INSTANCE;
    }
    return json;
  }

  private static JsonNode required(JsonNode json) throws NotCanonical {
    if (json == null) {
      throw NotCanonical.INSTANCE;
    }
    return json;
  }
}
