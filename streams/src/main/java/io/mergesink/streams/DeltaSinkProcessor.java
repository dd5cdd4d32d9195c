package io.mergesink.streams;

import io.mergesink.ingest.errors.BadRecordException;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
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
 *
 * <p>The first half of a primary-key change goes to {@link HeldKeyChanges} instead, until the next
 * record of its partition, or until the punctuator finds it held over a commit.
 */
final class DeltaSinkProcessor<K, V> implements Processor<K, V, Void, Void> {
  private final String storeName;
  private final String heldStoreName;
  private final Duration commitInterval;
  private final StreamsRecords records = new StreamsRecords();
  /** The last input offset seen per partition since {@link #init}: Streams re-delivers from its committed offset after a resume. */
  private final Map<KafkaPartition, Long> lastOffsets = new HashMap<>();
  private ProcessorContext<Void, Void> context;
  private DeltaSinkStore store;
  private HeldKeyChanges held;

  DeltaSinkProcessor(String storeName, String heldStoreName, Duration commitInterval) {
    this.storeName = storeName;
    this.heldStoreName = heldStoreName;
    this.commitInterval = commitInterval;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.context = context;
    this.store = context.getStateStore(storeName);
    this.held = new HeldKeyChanges(context.getStateStore(heldStoreName), records);
    lastOffsets.clear();
    // with no commit interval of its own the sink commits at Streams' pace, which also bounds how long a key change is held
    Duration interval = commitInterval.isZero()
        ? Duration.ofMillis(((Number) context.appConfigs().get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).longValue())
        : commitInterval;
    context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, now -> {
      boolean released = releaseOverdue();
      if (released || !commitInterval.isZero() && store.commitDue()) {
        context.commit();
      }
    });
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
    if (held.isKeyChange(view)) {
      held.hold(partition, records.held(metadata.offset(), record), store.commits());
      return;
    }
    List<KafkaRecord> released = new ArrayList<>(held.releaseBelow(partition, metadata.offset()));
    released.add(view);
    acceptAll(released);
  }

  /** Releases what was held over a commit to the store; returns whether there was any. */
  private boolean releaseOverdue() {
    List<KafkaRecord> released = new ArrayList<>();
    held.releaseOverdue(store.commits()).values().forEach(released::addAll);
    acceptAll(released);
    return !released.isEmpty();
  }

  /**
   * Hands {@code records} to the store in order. A released record that cannot be written must not
   * keep the ones after it from the store (they were consumed already): the first such error is
   * thrown after all of them, for the processing exception handler.
   */
  private void acceptAll(List<KafkaRecord> records) {
    BadRecordException bad = null;
    for (KafkaRecord record : records) {
      try {
        if (!store.accept(record)) {
          context.commit(); // the store failed: the commit throws its error before any offset is committed
          return;
        }
      } catch (BadRecordException e) {
        bad = bad == null ? e : bad;
      }
    }
    if (bad != null) {
      throw bad;
    }
  }
}
