/**
 * A Kafka Connect {@code Converter} for JSON with embedded schemas that gives the same Connect
 * schemas and values as Kafka's {@code JsonConverter} with {@code schemas.enable=true}, at a
 * fraction of its cost (docs/design.md, "JSON converter"): each distinct embedded schema is
 * recognised by its bytes and parsed once ({@link io.mergesink.connect.json.SchemaCache}), and
 * payloads are decoded by a streaming parser into the schema's values
 * ({@link io.mergesink.connect.json.ValueReader}). Input outside the shape Kafka's converter
 * writes is handed to Kafka's converter itself, so results and errors stay identical.
 */
package io.mergesink.connect.json;
