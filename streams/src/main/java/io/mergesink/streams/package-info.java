/**
 * The Kafka Streams front end (docs/design.md, "Kafka Streams front end"): {@link io.mergesink.streams.MergeSink#toDelta}
 * is a terminal processor that lands a {@code KStream}'s change events in Delta tables through the
 * ingest engine, exactly once. A state store the processor owns holds the task's engine; Streams
 * flushes it before it commits the task's input offsets.
 */
package io.mergesink.streams;
