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
 * engine and flushes when it is due, {@code preCommit} flushes and reports only offsets that are in
 * tables, {@code close} releases partitions. Here live only Connect's parts: records as the engine
 * sees them, seeks, the dead letter queue, metrics, and the engine's errors as Connect's
 * ({@link RetriableException} for storage failures, {@link ConnectException} for fatal ones).
 */
public final class MergeSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(MergeSinkTask.class);

  private IngestEngine engine;
  private BadRecordHandler badRecords;
  private SinkMetrics metrics;

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
    metrics.registerGauges(engine::bufferedChanges, engine::openTransactions, engine::cutLagMillis, engine::storageRequests);
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
        try {
          engine.accept(view);
        } catch (BadRecordException e) {
          badRecords.handle(record, e);
          metrics.deadLettered();
          engine.skip(view);
        }
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
    try {
      flush().failure().ifPresent(e -> LOG.warn("Commit failed, changes stay buffered and are retried: {}", e.getMessage()));
    } catch (IngestException e) {
      throw connectError(e);
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

  /** Commits what the engine holds, once the dead letter queue holds every record reported to it. */
  private FlushOutcome flush() {
    badRecords.awaitReported();
    // Connect commits only the offsets the tables hold, so a half-read primary-key change may wait for its create
    FlushOutcome outcome = engine.flush(FlushScope.WHOLE_KEY_CHANGES);
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
