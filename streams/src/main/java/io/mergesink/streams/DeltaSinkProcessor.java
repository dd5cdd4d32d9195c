package io.mergesink.streams;

import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Hands each record, at the input position Streams reports for it, to the task's
 * {@link DeltaSinkStore}, and asks Streams to commit when the engine's commit interval passed (the
 * store flushes before the offsets are committed). Forwards nothing.
 *
 * <p>A table's position is the input offset of the record that changed it last, so every input
 * record may reach this processor once, in offset order: a record without an input position (sent
 * by a punctuator) or a second record at the same position (a {@code flatMap} upstream) is refused.
 */
final class DeltaSinkProcessor<K, V> implements Processor<K, V, Void, Void> {
  private final String storeName;
  private final Duration commitInterval;
  private final StreamsRecords records = new StreamsRecords();
  /** The last input offset seen per partition since {@link #init}: Streams re-delivers from its committed offset after a resume. */
  private final Map<KafkaPartition, Long> lastOffsets = new HashMap<>();
  private ProcessorContext<Void, Void> context;
  private DeltaSinkStore store;

  DeltaSinkProcessor(String storeName, Duration commitInterval) {
    this.storeName = storeName;
    this.commitInterval = commitInterval;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.context = context;
    this.store = context.getStateStore(storeName);
    lastOffsets.clear();
    if (!commitInterval.isZero()) {
      context.schedule(commitInterval, PunctuationType.WALL_CLOCK_TIME, now -> {
        if (store.commitDue()) {
          context.commit();
        }
      });
    }
  }

  @Override
  public void process(Record<K, V> record) {
    // a punctuator's records have no metadata, or (Kafka 4.3) metadata without topic and with offset -1
    RecordMetadata metadata = context.recordMetadata()
        .filter(candidate -> candidate.topic() != null && candidate.offset() >= 0)
        .orElseThrow(() -> new StreamsException("MergeSink.toDelta got a record without an input position (key "
            + record.key() + ", in task " + context.taskId() + "): records sent by a punctuator cannot be landed "
            + "exactly once; write them to a topic and land that"));
    KafkaPartition partition = new KafkaPartition(metadata.topic(), metadata.partition());
    Long last = lastOffsets.put(partition, metadata.offset());
    if (last != null && metadata.offset() <= last) {
      throw new StreamsException("MergeSink.toDelta got a second record at topic " + metadata.topic() + ", partition "
          + metadata.partition() + ", offset " + metadata.offset() + " (the last was at offset " + last + "): a table's "
          + "position is the input offset of a change, so each input record may send at most one; write the stream "
          + "to a topic (repartition()) before the sink");
    }
    KafkaRecord view = records.view(partition, metadata.offset(), record);
    if (!store.accept(view)) {
      context.commit(); // the store failed: the commit throws its error before any offset is committed
    }
  }
}
