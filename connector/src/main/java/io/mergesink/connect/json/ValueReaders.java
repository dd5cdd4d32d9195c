package io.mergesink.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * The {@link ValueReader} of each Connect schema, mirroring how Kafka's JsonConverter turns JSON
 * into Connect values: a logical type (by schema name) first, then the schema type; numbers as
 * Jackson's tree nodes would convert them (floating-point tokens through {@link BigDecimal}, as
 * JsonConverter reads them with {@code USE_BIG_DECIMAL_FOR_FLOATS}); strings base64-decoded for
 * bytes exactly as Jackson's {@link TextNode} does. Where JsonConverter would coerce a JSON value
 * of another type (a string where a number belongs, say) the readers stop with {@link NotCanonical}
 * and leave the record to JsonConverter.
 */
final class ValueReaders {
  private ValueReaders() {}

  /** Decodes the value of a present (non-null) JSON value. */
  @FunctionalInterface
  private interface Present {
    Object read(JsonParser parser) throws IOException, NotCanonical;
  }

  /**
   * The reader of {@code schema}'s values; {@code schema} null reads schemaless JSON as
   * JsonConverter does (maps, lists, longs, doubles, strings, booleans).
   *
   * @param replaceNullWithDefault JsonConverter's {@code replace.null.with.default}: whether a null
   *     or absent value of a schema with a default becomes the default
   */
  static ValueReader of(Schema schema, boolean replaceNullWithDefault) {
    if (schema == null) {
      return SCHEMALESS;
    }
    return new Typed(schema, replaceNullWithDefault, present(schema, replaceNullWithDefault));
  }

  private static Present present(Schema schema, boolean replaceNullWithDefault) {
    String logicalName = schema.name();
    if (Decimal.LOGICAL_NAME.equals(logicalName)) {
      return parser -> decimal(schema, parser);
    } else if (Date.LOGICAL_NAME.equals(logicalName)) {
      return parser -> Date.toLogical(schema, intOf(parser));
    } else if (Time.LOGICAL_NAME.equals(logicalName)) {
      return parser -> Time.toLogical(schema, intOf(parser));
    } else if (Timestamp.LOGICAL_NAME.equals(logicalName)) {
      return parser -> Timestamp.toLogical(schema, longOf(parser));
    }
    return switch (schema.type()) {
      case INT8 -> parser -> (byte) intOf(parser);
      case INT16 -> parser -> (short) intOf(parser);
      case INT32 -> ValueReaders::intOf;
      case INT64 -> ValueReaders::longOf;
      case FLOAT32 -> parser -> parser.currentToken() == JsonToken.VALUE_NUMBER_FLOAT ? parser.getDecimalValue().floatValue() : (float) longOf(parser);
      case FLOAT64 -> ValueReaders::doubleOf;
      case BOOLEAN -> ValueReaders::booleanOf;
      case STRING -> ValueReaders::textOf;
      case BYTES -> parser -> TextNode.valueOf(textOf(parser)).binaryValue();
      case ARRAY -> new ArrayBody(of(schema.valueSchema(), replaceNullWithDefault));
      case MAP -> schema.keySchema().type() == Schema.Type.STRING
          ? new ObjectMapBody(of(schema.valueSchema(), replaceNullWithDefault))
          : new PairMapBody(of(schema.keySchema(), replaceNullWithDefault), of(schema.valueSchema(), replaceNullWithDefault));
      case STRUCT -> new StructBody(schema, replaceNullWithDefault);
    };
  }

  /** JsonConverter's decimal: a JSON number as it is written, or base64 of the unscaled bytes. */
  private static BigDecimal decimal(Schema schema, JsonParser parser) throws IOException, NotCanonical {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
      return parser.getDecimalValue();
    }
    return Decimal.toLogical(schema, TextNode.valueOf(textOf(parser)).binaryValue());
  }

  /** A JSON integer that fits in an int (what JsonConverter's int types and Date/Time take as such). */
  private static int intOf(JsonParser parser) throws IOException, NotCanonical {
    if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() != JsonParser.NumberType.INT) {
      throw NotCanonical.INSTANCE;
    }
    return parser.getIntValue();
  }

  private static long longOf(JsonParser parser) throws IOException, NotCanonical {
    if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      throw NotCanonical.INSTANCE;
    }
    return parser.getLongValue();
  }

  private static double doubleOf(JsonParser parser) throws IOException, NotCanonical {
    return parser.currentToken() == JsonToken.VALUE_NUMBER_FLOAT ? parser.getDecimalValue().doubleValue() : (double) longOf(parser);
  }

  private static Boolean booleanOf(JsonParser parser) throws NotCanonical {
    return switch (parser.currentToken()) {
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      default -> throw NotCanonical.INSTANCE;
    };
  }

  private static String textOf(JsonParser parser) throws IOException, NotCanonical {
    if (parser.currentToken() != JsonToken.VALUE_STRING) {
      throw NotCanonical.INSTANCE;
    }
    return parser.getText();
  }

  /** A schema's reader: JSON null and absent values by the schema's default and optionality, the rest by its body. */
  private static final class Typed implements ValueReader {
    private final Schema schema;
    private final boolean replaceNullWithDefault;
    private final Present body;

    Typed(Schema schema, boolean replaceNullWithDefault, Present body) {
      this.schema = schema;
      this.replaceNullWithDefault = replaceNullWithDefault;
      this.body = body;
    }

    @Override
    public Object read(JsonParser parser) throws IOException, NotCanonical {
      return parser.currentToken() == JsonToken.VALUE_NULL ? absent() : body.read(parser);
    }

    @Override
    public Object absent() throws NotCanonical {
      // read from the schema each time: while a default value itself is parsed, the schema is still a builder without one
      Object defaultValue = schema.defaultValue();
      if (defaultValue != null && replaceNullWithDefault) {
        return defaultValue;
      }
      if (schema.isOptional()) {
        return null;
      }
      throw NotCanonical.INSTANCE;
    }
  }

  /** A struct: a JSON object whose members are the fields by name; other members are ignored, absent fields get {@link ValueReader#absent()}. */
  private static final class StructBody implements Present {
    private final Schema schema;
    private final Field[] fields;
    private final ValueReader[] readers;
    private final Map<String, Integer> positions = new HashMap<>();

    StructBody(Schema schema, boolean replaceNullWithDefault) {
      this.schema = schema.schema();
      List<Field> schemaFields = schema.fields();
      this.fields = schemaFields.toArray(new Field[0]);
      this.readers = new ValueReader[fields.length];
      for (int i = 0; i < fields.length; i++) {
        readers[i] = of(fields[i].schema(), replaceNullWithDefault);
        positions.put(fields[i].name(), i);
      }
    }

    @Override
    public Object read(JsonParser parser) throws IOException, NotCanonical {
      if (parser.currentToken() != JsonToken.START_OBJECT) {
        throw NotCanonical.INSTANCE;
      }
      Object[] values = new Object[fields.length];
      boolean[] present = new boolean[fields.length];
      int expected = 0;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        // members usually come in field order: try the next field before the map
        int position = expected < fields.length && fields[expected].name().equals(name) ? expected : positionOf(name);
        parser.nextToken();
        if (position < 0) {
          parser.skipChildren();
        } else { // a member twice: the last wins, as in JsonConverter's tree
          values[position] = readers[position].read(parser);
          present[position] = true;
          expected = position + 1;
        }
      }
      for (int i = 0; i < fields.length; i++) {
        if (!present[i]) {
          values[i] = readers[i].absent();
        }
      }
      return TrustedStructs.of(schema, fields, values);
    }

    private int positionOf(String name) {
      Integer position = positions.get(name);
      return position == null ? -1 : position;
    }
  }

  /** An array: a JSON array of the element schema's values. */
  private record ArrayBody(ValueReader elements) implements Present {
    @Override
    public Object read(JsonParser parser) throws IOException, NotCanonical {
      if (parser.currentToken() != JsonToken.START_ARRAY) {
        throw NotCanonical.INSTANCE;
      }
      List<Object> list = new ArrayList<>();
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        list.add(elements.read(parser));
      }
      return list;
    }
  }

  /** A map with string keys: a JSON object. */
  private record ObjectMapBody(ValueReader values) implements Present {
    @Override
    public Object read(JsonParser parser) throws IOException, NotCanonical {
      if (parser.currentToken() != JsonToken.START_OBJECT) {
        throw NotCanonical.INSTANCE;
      }
      Map<Object, Object> map = new HashMap<>();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String key = parser.currentName();
        parser.nextToken();
        map.put(key, values.read(parser)); // a key twice: the last wins, as in JsonConverter's tree
      }
      return map;
    }
  }

  /** A map with keys of another type: a JSON array of {@code [key, value]} arrays. */
  private record PairMapBody(ValueReader keys, ValueReader values) implements Present {
    @Override
    public Object read(JsonParser parser) throws IOException, NotCanonical {
      if (parser.currentToken() != JsonToken.START_ARRAY) {
        throw NotCanonical.INSTANCE;
      }
      Map<Object, Object> map = new HashMap<>();
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        if (parser.currentToken() != JsonToken.START_ARRAY || parser.nextToken() == JsonToken.END_ARRAY) {
          throw NotCanonical.INSTANCE;
        }
        Object key = keys.read(parser);
        if (parser.nextToken() == JsonToken.END_ARRAY) {
          throw NotCanonical.INSTANCE;
        }
        Object value = values.read(parser);
        if (parser.nextToken() != JsonToken.END_ARRAY) {
          throw NotCanonical.INSTANCE;
        }
        map.put(key, value);
      }
      return map;
    }
  }

  /** Schemaless JSON ({@code "schema": null}): objects become maps, arrays lists, integers longs, other numbers doubles. */
  private static final ValueReader SCHEMALESS = new ValueReader() {
    @Override
    public Object read(JsonParser parser) throws IOException, NotCanonical {
      return switch (parser.currentToken()) {
        case VALUE_NULL -> null;
        case VALUE_TRUE -> Boolean.TRUE;
        case VALUE_FALSE -> Boolean.FALSE;
        case VALUE_NUMBER_INT -> longOf(parser);
        case VALUE_NUMBER_FLOAT -> parser.getDecimalValue().doubleValue();
        case VALUE_STRING -> parser.getText();
        case START_ARRAY -> {
          List<Object> list = new ArrayList<>();
          while (parser.nextToken() != JsonToken.END_ARRAY) {
            list.add(read(parser));
          }
          yield list;
        }
        case START_OBJECT -> {
          Map<Object, Object> map = new HashMap<>();
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            parser.nextToken();
            map.put(key, read(parser));
          }
          yield map;
        }
        default -> throw NotCanonical.INSTANCE;
      };
    }

    @Override
    public Object absent() {
      return null;
    }
  };
}
