/**
 * The neutral view of a consumed Kafka record ({@link io.mergesink.ingest.record.KafkaRecord}) that
 * every front end hands the engine: position, timestamp, key and value as Connect data, headers.
 * The engine never sees a Connect {@code SinkRecord} or a Streams {@code Record}.
 */
package io.mergesink.ingest.record;
