package io.mergesink.core.types;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Delta's schema JSON (PROTOCOL.md, "Schema Serialization Format"): the {@code schemaString} of a
 * {@code metaData} action.
 *
 * <pre>
 * {"type":"struct","fields":[{"name":"id","type":"long","nullable":false,"metadata":{}}, ...]}
 * </pre>
 *
 * Primitive types are JSON strings ({@code "long"}, {@code "decimal(12,2)"}); arrays, maps and
 * structs are objects with a {@code type} of {@code array}, {@code map} or {@code struct}.
 */
public final class SchemaJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();
  private static final TypeReference<Map<String, Object>> METADATA_TYPE = new TypeReference<>() {};
  /** Spark writes {@code decimal(p,s)}; a bare {@code decimal} means decimal(10,0). */
  private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");
  private static final DecimalType DEFAULT_DECIMAL = new DecimalType(10, 0);

  private static final String TYPE = "type";
  private static final String STRUCT = "struct";
  private static final String ARRAY = "array";
  private static final String MAP = "map";

  private SchemaJson() {}

  /** The schema as Delta's schema JSON, fields in order, with each field's metadata. */
  public static String toJson(StructType schema) {
    StringWriter out = new StringWriter();
    try (JsonGenerator gen = FACTORY.createGenerator(out)) {
      writeType(gen, schema);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize schema " + schema, e);
    }
    return out.toString();
  }

  /**
   * Parses Delta's schema JSON.
   *
   * @throws IllegalArgumentException when the text is not JSON, the top level is not a struct, or a
   *     type is unknown (the message names the type and the field)
   */
  public static StructType fromJson(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("schema is not valid JSON: " + e.getOriginalMessage() + " in " + json, e);
    }
    DataType type = parseType(root, "<schema>");
    if (!(type instanceof StructType struct)) {
      throw new IllegalArgumentException("expected a struct at the top of a schema, found " + type + " in " + json);
    }
    return struct;
  }

  /**
   * The type named {@code name} as schema JSON writes a type without nested fields
   * ({@code "long"}, {@code "decimal(12,2)"}), as in {@code delta.typeChanges}.
   *
   * @throws IllegalArgumentException for an unknown name; the message names {@code where}
   */
  public static DataType parseTypeName(String name, String where) {
    return parsePrimitive(name, where);
  }

  private static void writeType(JsonGenerator gen, DataType type) throws IOException {
    if (type instanceof PrimitiveType primitive) {
      gen.writeString(primitive.deltaName());
    } else if (type instanceof DecimalType decimal) {
      gen.writeString("decimal(" + decimal.precision() + "," + decimal.scale() + ")");
    } else if (type instanceof ArrayType array) {
      gen.writeStartObject();
      gen.writeStringField(TYPE, ARRAY);
      gen.writeFieldName("elementType");
      writeType(gen, array.elementType());
      gen.writeBooleanField("containsNull", array.containsNull());
      gen.writeEndObject();
    } else if (type instanceof MapType map) {
      gen.writeStartObject();
      gen.writeStringField(TYPE, MAP);
      gen.writeFieldName("keyType");
      writeType(gen, map.keyType());
      gen.writeFieldName("valueType");
      writeType(gen, map.valueType());
      gen.writeBooleanField("valueContainsNull", map.valueContainsNull());
      gen.writeEndObject();
    } else if (type instanceof StructType struct) {
      writeStruct(gen, struct);
    } else {
      throw new IllegalArgumentException("unknown data type " + type);
    }
  }

  private static void writeStruct(JsonGenerator gen, StructType struct) throws IOException {
    gen.writeStartObject();
    gen.writeStringField(TYPE, STRUCT);
    gen.writeArrayFieldStart("fields");
    for (StructField field : struct.fields()) {
      gen.writeStartObject();
      gen.writeStringField("name", field.name());
      gen.writeFieldName(TYPE);
      writeType(gen, field.type());
      gen.writeBooleanField("nullable", field.nullable());
      gen.writeFieldName("metadata");
      MAPPER.writeValue(gen, field.metadata());
      gen.writeEndObject();
    }
    gen.writeEndArray();
    gen.writeEndObject();
  }

  private static DataType parseType(JsonNode node, String where) {
    if (node.isTextual()) {
      return parsePrimitive(node.asText(), where);
    }
    if (!node.isObject() || !node.path(TYPE).isTextual()) {
      throw new IllegalArgumentException("expected a type name or a type object for " + where + ", found " + node);
    }
    String kind = node.get(TYPE).asText();
    return switch (kind) {
      case STRUCT -> parseStruct(node, where);
      case ARRAY -> new ArrayType(
          parseType(required(node, "elementType", where), where + ".element"),
          required(node, "containsNull", where).asBoolean());
      case MAP -> new MapType(
          parseType(required(node, "keyType", where), where + ".key"),
          parseType(required(node, "valueType", where), where + ".value"),
          required(node, "valueContainsNull", where).asBoolean());
      default -> throw new IllegalArgumentException("unknown Delta type '" + kind + "' for " + where);
    };
  }

  private static StructType parseStruct(JsonNode node, String where) {
    JsonNode fieldsNode = required(node, "fields", where);
    List<StructField> fields = new ArrayList<>(fieldsNode.size());
    for (JsonNode fieldNode : fieldsNode) {
      String name = required(fieldNode, "name", where).asText();
      String fieldWhere = "<schema>".equals(where) ? name : where + "." + name;
      DataType type = parseType(required(fieldNode, TYPE, fieldWhere), fieldWhere);
      boolean nullable = fieldNode.path("nullable").asBoolean(true);
      JsonNode metadataNode = fieldNode.get("metadata");
      Map<String, Object> metadata = metadataNode == null || metadataNode.isNull()
          ? Map.of()
          : MAPPER.convertValue(metadataNode, METADATA_TYPE);
      fields.add(new StructField(name, type, nullable, metadata));
    }
    return new StructType(fields);
  }

  private static DataType parsePrimitive(String name, String where) {
    PrimitiveType primitive = PrimitiveType.fromDeltaName(name);
    if (primitive != null) {
      return primitive;
    }
    if ("decimal".equals(name)) {
      return DEFAULT_DECIMAL;
    }
    Matcher decimal = DECIMAL.matcher(name);
    if (decimal.matches()) {
      return new DecimalType(Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)));
    }
    throw new IllegalArgumentException("unknown Delta type '" + name + "' for " + where);
  }

  private static JsonNode required(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new IllegalArgumentException("expected field '" + field + "' in the type of " + where + ", found " + node);
    }
    return value;
  }
}
