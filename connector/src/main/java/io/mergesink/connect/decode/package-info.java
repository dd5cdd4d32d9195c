/**
 * Decoding Kafka Connect {@code SinkRecord}s into {@link io.mergesink.connect.decode.ChangeEvent}s
 * (docs/design.md, "Decoding"): Debezium envelopes, flattened records (ExtractNewRecordState), tombstones,
 * {@code Struct} values from any converter and schemaless JSON maps. Connect schemas and
 * Debezium logical types become the table engine's types ({@link io.mergesink.connect.decode.SchemaConverter}),
 * values become its in-memory values ({@link io.mergesink.connect.decode.ValueConverter}).
 * Every problem with a record is a {@link io.mergesink.connect.decode.DecodeException} naming the
 * record's topic, partition and offset.
 */
package io.mergesink.connect.decode;
