/**
 * Decoding consumed records ({@link io.mergesink.ingest.record.KafkaRecord}) into {@link io.mergesink.ingest.decode.ChangeEvent}s
 * (docs/design.md, "Decoding"): Debezium envelopes, flattened records (ExtractNewRecordState), tombstones,
 * {@code Struct} values from any converter and schemaless JSON maps. Connect schemas and
 * Debezium logical types become the table engine's types ({@link io.mergesink.ingest.decode.SchemaConverter}),
 * values become its in-memory values ({@link io.mergesink.ingest.decode.ValueConverter}).
 * Every problem with a record is a {@link io.mergesink.ingest.decode.DecodeException} naming the
 * record's topic, partition and offset.
 */
package io.mergesink.ingest.decode;
