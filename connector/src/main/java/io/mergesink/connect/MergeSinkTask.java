package io.mergesink.connect;

import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.connect.metrics.MetricsRegistries;
import io.mergesink.connect.sink.BadRecordHandler;
import io.mergesink.connect.sink.SinkMetrics;
import io.mergesink.connect.sink.SinkRecords;
import io.mergesink.ingest.FlushOutcome;
import io.mergesink.ingest.FlushScope;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.BadRecordException;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.errors.IngestException;
import io.mergesink.ingest.errors.RetriableStorageException;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MergeSink task: Connect's lifecycle over the {@link IngestEngine} (docs/design.md, "Data
 * flow"). {@code open} seeks to the positions the tables hold, {@code put} hands records to the
 * engine and flushes when it is due, {@code preCommit} flushes unless a flush is still in flight and
 * reports only offsets that are in tables, {@code close} releases partitions. Here live only
 * Connect's parts: records as the engine sees them, seeks, the dead letter queue, metrics, and the
 * engine's errors as Connect's ({@link RetriableException} for storage failures,
 * {@link ConnectException} for fatal ones).
 */
public final class MergeSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(MergeSinkTask.class);

  private IngestEngine engine;
  private BadRecordHandler badRecords;
  private SinkMetrics metrics;
  /**
   * The records the engine read while a flush was in flight and did not buffer yet, by position: the
   * engine may find one of them bad later ({@link IngestEngine#awaitFlush()}), and the dead letter
   * queue takes Connect's record.
   */
  private final Map<ReadAt, SinkRecord> parked = new HashMap<>();

  private record ReadAt(KafkaPartition partition, long offset) {}

  @Override
  public String version() {
    return MergeSinkConnector.VERSION;
  }

  @Override
  public void start(Map<String, String> props) {
    MergeSinkConfig config = new MergeSinkConfig(props);
    IngestOptions options = config.ingestOptions();
    metrics = new SinkMetrics(MetricsRegistries.forTask(context, config.connectorName(), config.taskId()));
    try {
      engine = new IngestEngine(options, metrics);
    } catch (FatalIngestException e) {
      metrics.close();
      throw new ConnectException(e.getMessage(), e);
    }
    metrics.registerGauges(engine);
    badRecords = new BadRecordHandler(config.errorTolerance(), context.errantRecordReporter());
  }

  /**
   * Reads where {@code partitions} stand in the tables. When storage fails meanwhile, the partitions
   * stay unopened and each opens at its first record ({@link #openLate}): Connect fails a task on any
   * exception from {@code open}, but retries a {@code put} that throws a {@link RetriableException}.
   */
  @Override
  public void open(Collection<TopicPartition> partitions) {
    List<KafkaPartition> assigned = partitions.stream().map(p -> new KafkaPartition(p.topic(), p.partition())).toList();
    try {
      seek(engine.open(assigned));
    } catch (RetriableStorageException e) {
      LOG.warn("Could not read where {} stand in the tables ({}); each is opened when its first record comes", assigned,
          e.getMessage());
    } catch (IngestException e) {
      throw connectError(e);
    }
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    try {
      engine.seeksApplied(); // Connect applied them before this poll
      for (SinkRecord record : records) {
        KafkaRecord view = SinkRecords.view(record);
        if (!engine.holds(view.partition())) {
          openLate(record, view.partition());
        }
        accept(record, view);
      }
      if (engine.commitDue()) {
        FlushOutcome outcome = flush();
        if (outcome.failure().isPresent() && outcome.seeks().isEmpty() && engine.buffersFull()) {
          throw outcome.failure().get(); // the buffers may not grow: Connect redelivers the batch
        }
      }
    } catch (IngestException e) {
      throw connectError(e);
    }
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    // a commit in flight (flush.pipelined) is not waited for: the task would read nothing meanwhile, and the
    // offsets that landed are what Connect may store either way; put, or the next offset commit, applies it
    if (!engine.flushRunning()) {
      try {
        flush().failure().ifPresent(e -> LOG.warn("Commit failed, changes stay buffered and are retried: {}", e.getMessage()));
      } catch (IngestException e) {
        throw connectError(e);
      }
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    engine.committedOffsets().forEach((partition, offset) ->
        offsets.put(new TopicPartition(partition.topic(), partition.partition()), new OffsetAndMetadata(offset)));
    return offsets;
  }

  /**
   * Releases {@code partitions}. A storage failure while the engine re-reads the tables for the
   * partitions it keeps does not reach Connect, which would fail the task on it: the engine re-reads
   * them before its next commit ({@link IngestEngine#close(Collection)}).
   */
  @Override
  public void close(Collection<TopicPartition> partitions) {
    try {
      awaitFlush();
      badRecords.awaitReported();
      seek(engine.close(partitions.stream().map(p -> new KafkaPartition(p.topic(), p.partition())).toList()).seeks());
    } catch (IngestException e) {
      throw connectError(e);
    }
  }

  @Override
  public void stop() {
    if (engine != null) {
      engine.close();
      metrics.close();
    }
  }

  /**
   * Opens the partition of a record that came before {@code open} did, or whose {@code open} could
   * not read the tables. Connect can deliver records
   * of a partition the consumer was just given before the task is told (a rebalance race seen under
   * the consumer group protocol of KIP-848). The partition starts as {@code open} would start it;
   * when that sends the consumer back to the tables' position, the engine ignores the records of the
   * partition in this batch, to come again from there.
   *
   * @throws ConnectException the record's partition is not assigned to this task at all
   */
  private void openLate(SinkRecord record, KafkaPartition partition) {
    TopicPartition assigned = new TopicPartition(partition.topic(), partition.partition());
    if (!context.assignment().contains(assigned)) {
      throw new ConnectException("record of " + assigned + " at offset " + record.originalKafkaOffset()
          + ", a partition this task was not assigned");
    }
    LOG.info("{}: opening the partition at a record (offset {}) that came before it was opened", assigned,
        record.originalKafkaOffset());
    seek(engine.open(List.of(partition)));
  }

  /**
   * Hands {@code record} to the engine; a bad record, this one or one read while a flush was in flight,
   * goes to the dead letter queue.
   */
  private void accept(SinkRecord record, KafkaRecord view) {
    while (true) {
      try {
        engine.accept(view);
        break;
      } catch (BadRecordException e) {
        setAside(e);
        if (e.partition().equals(view.partition()) && e.offset() == view.offset()) {
          badRecords.handle(record, e);
          metrics.deadLettered();
          engine.skip(view);
          break;
        }
      }
    }
    if (engine.parkedRecords() > 0) {
      parked.put(new ReadAt(view.partition(), view.offset()), record);
    } else {
      parked.clear();
    }
  }

  /** Waits for the engine's flush in flight and has it buffer the records read meanwhile, setting bad ones aside. */
  private void awaitFlush() {
    while (true) {
      try {
        engine.awaitFlush();
        parked.clear();
        return;
      } catch (BadRecordException e) {
        setAside(e);
      }
    }
  }

  /** Sends a record the engine read while a flush was in flight, and now finds bad, to the dead letter queue. */
  private void setAside(BadRecordException e) {
    SinkRecord record = parked.remove(new ReadAt(e.partition(), e.offset()));
    if (record != null) {
      badRecords.handle(record, e);
      metrics.deadLettered();
    }
  }

  /**
   * Commits what the engine holds, once the dead letter queue holds every record reported to it: with
   * {@code flush.pipelined} the commits run while the next batches are read, and what landed is
   * reported by a later call.
   */
  private FlushOutcome flush() {
    awaitFlush();
    badRecords.awaitReported();
    // Connect commits only the offsets the tables hold, so a half-read primary-key change may wait for its create
    FlushOutcome outcome = engine.flushInBackground(FlushScope.WHOLE_KEY_CHANGES);
    seek(outcome.seeks());
    return outcome;
  }

  private void seek(Map<KafkaPartition, Long> seeks) {
    seeks.forEach((partition, offset) -> context.offset(new TopicPartition(partition.topic(), partition.partition()), offset));
  }

  private static RuntimeException connectError(IngestException e) {
    if (e instanceof RetriableStorageException) {
      return new RetriableException(e.getMessage(), e);
    }
    return new ConnectException(e.getMessage(), e);
  }
}
