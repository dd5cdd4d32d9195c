package io.mergesink.ingest.format.delta;

import io.mergesink.core.writer.WriterOptions;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.Set;

/**
 * The partitions a task holds and the writer options they give (its key-index scope), which every
 * table the task writes shares: a task of a thousand partitions writing a thousand tables keeps one
 * copy, not one per table.
 */
record TaskPartitions(Set<KafkaPartition> partitions, WriterOptions writerOptions) {}
