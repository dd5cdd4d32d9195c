package io.mergesink.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;

/**
 * Decodes the JSON of one value of a Connect schema, token by token, into the value Kafka's
 * JsonConverter gives for it. Made once per schema ({@link ValueReaders#of}); stateless, so one
 * reader serves every record of its schema.
 */
interface ValueReader {
  /**
   * Reads the value whose first token is {@code parser}'s current token and leaves the parser on
   * its last token.
   *
   * @throws NotCanonical the JSON is not what JsonConverter writes for the schema (another JSON
   *     type, a null where a value is required)
   * @throws IOException the parser found malformed JSON
   */
  Object read(JsonParser parser) throws IOException, NotCanonical;

  /**
   * The value of a struct field the JSON object does not have: as for a JSON null, the schema's
   * default (with {@code replace.null.with.default}), else null for an optional schema.
   *
   * @throws NotCanonical the schema requires a value
   */
  Object absent() throws NotCanonical;
}
