package io.mergesink.connect.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where the {@code "schema"} and {@code "payload"} values of an envelope
 * {@code {"schema": ..., "payload": ...}} lie in a record's bytes, found by a scan that tracks only
 * strings and brackets: it does not parse or validate, because the schema's bytes are compared
 * with schemas parsed before and the payload's are parsed afterwards. Anything else (other keys,
 * keys with escapes, a key twice, not an object, not UTF-8) is {@link NotCanonical}, for Kafka's
 * converter to decide.
 *
 * @param schemaStart index of the schema value's first byte
 * @param schemaEnd index after its last byte
 * @param payloadStart index of the payload value's first byte
 * @param payloadEnd index after its last byte
 */
record JsonEnvelope(int schemaStart, int schemaEnd, int payloadStart, int payloadEnd) {
  private static final byte[] SCHEMA_KEY = "\"schema\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PAYLOAD_KEY = "\"payload\"".getBytes(StandardCharsets.US_ASCII);
  private static final int ABSENT = -1;

  /**
   * Locates the envelope's values in {@code bytes}. When the schema value starts with the bytes of
   * {@code likelySchema} (the schema this topic's previous record had; may be null), its end is
   * taken from that without scanning it.
   *
   * @throws NotCanonical the bytes are not such an envelope
   */
  static JsonEnvelope locate(byte[] bytes, byte[] likelySchema) throws NotCanonical {
    int schemaStart = ABSENT;
    int schemaEnd = ABSENT;
    int payloadStart = ABSENT;
    int payloadEnd = ABSENT;
    int i = expect(bytes, skipWhitespace(bytes, 0), '{');
    while (true) {
      i = skipWhitespace(bytes, i);
      boolean schema = startsWith(bytes, i, SCHEMA_KEY);
      if (!schema && !startsWith(bytes, i, PAYLOAD_KEY)) {
        throw NotCanonical.INSTANCE;
      }
      i = skipWhitespace(bytes, expect(bytes, skipWhitespace(bytes, i + (schema ? SCHEMA_KEY.length : PAYLOAD_KEY.length)), ':'));
      if (schema) {
        if (schemaStart != ABSENT) {
          throw NotCanonical.INSTANCE;
        }
        schemaStart = i;
        schemaEnd = likelySchema != null && startsWith(bytes, i, likelySchema) ? i + likelySchema.length : skipValue(bytes, i);
        i = schemaEnd;
      } else {
        if (payloadStart != ABSENT) {
          throw NotCanonical.INSTANCE;
        }
        payloadStart = i;
        payloadEnd = skipValue(bytes, i);
        i = payloadEnd;
      }
      i = skipWhitespace(bytes, i);
      if (i < bytes.length && bytes[i] == ',') {
        i++;
      } else {
        break;
      }
    }
    // the closing brace, then nothing but whitespace (Kafka's converter decides about anything else)
    i = skipWhitespace(bytes, expect(bytes, i, '}'));
    if (i != bytes.length || schemaStart == ABSENT || payloadStart == ABSENT) {
      throw NotCanonical.INSTANCE;
    }
    return new JsonEnvelope(schemaStart, schemaEnd, payloadStart, payloadEnd);
  }

  /**
   * The index after the JSON value that starts at {@code start}: after the bracket that closes an
   * object or array, the quote that closes a string, or the last character of a number or literal.
   *
   * @throws NotCanonical the value does not end before the bytes do
   */
  static int skipValue(byte[] bytes, int start) throws NotCanonical {
    if (start >= bytes.length) {
      throw NotCanonical.INSTANCE;
    }
    byte first = bytes[start];
    if (first == '"') {
      return skipString(bytes, start);
    }
    if (first != '{' && first != '[') {
      int i = start;
      while (i < bytes.length && !isDelimiter(bytes[i])) {
        i++;
      }
      if (i == start) {
        throw NotCanonical.INSTANCE;
      }
      return i;
    }
    int depth = 0;
    for (int i = start; i < bytes.length; i++) {
      byte b = bytes[i];
      if (b == '"') {
        i = skipString(bytes, i) - 1;
      } else if (b == '{' || b == '[') {
        depth++;
      } else if ((b == '}' || b == ']') && --depth == 0) {
        return i + 1;
      }
    }
    throw NotCanonical.INSTANCE;
  }

  private static int skipString(byte[] bytes, int quote) throws NotCanonical {
    for (int i = quote + 1; i < bytes.length; i++) {
      byte b = bytes[i];
      if (b == '\\') {
        i++;
      } else if (b == '"') {
        return i + 1;
      }
    }
    throw NotCanonical.INSTANCE;
  }

  private static boolean isDelimiter(byte b) {
    return b == ',' || b == '}' || b == ']' || isWhitespace(b);
  }

  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\n' || b == '\r' || b == '\t';
  }

  private static int skipWhitespace(byte[] bytes, int from) {
    int i = from;
    while (i < bytes.length && isWhitespace(bytes[i])) {
      i++;
    }
    return i;
  }

  private static int expect(byte[] bytes, int at, char expected) throws NotCanonical {
    if (at >= bytes.length || bytes[at] != expected) {
      throw NotCanonical.INSTANCE;
    }
    return at + 1;
  }

  private static boolean startsWith(byte[] bytes, int from, byte[] prefix) {
    return bytes.length - from >= prefix.length && Arrays.equals(bytes, from, from + prefix.length, prefix, 0, prefix.length);
  }
}
