package io.mergesink.streams;

import io.mergesink.ingest.FlushOutcome;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.BadRecordException;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.errors.IngestException;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest engine of one stream task, as a state store so that Streams flushes it before it
 * commits the task's input offsets (docs/design.md, "Kafka Streams front end"). Its state is the
 * tables: no changelog, nothing on local disk, nothing to restore; a task that starts anywhere
 * reads its positions from the tables.
 *
 * <p>Why {@link CachedStateStore#flushCache()}: in Kafka 4.3 a task commit runs
 * {@code StreamTask.prepareCommit} (which flushes the caches of the task's stores, through this
 * method), then commits the offsets (the consumer's {@code commitSync}, or the producer's
 * transaction under {@code exactly_once_v2}), and only then {@code postCommit}, which calls
 * {@link StateStore#commit} (and under {@code exactly_once_v2} not at all while the task runs). A
 * flush from {@code commit} would let a crash after the offset commit lose what was buffered.
 *
 * <p>Engine failures other than bad records do not go through the application's processing
 * exception handler (which might skip the record): the store keeps the first one, accepts nothing
 * more, and throws it from the next flush, so that commit fails and the stream thread dies without
 * committing offsets past what the tables hold; its replacement resumes from the tables.
 */
final class DeltaSinkStore implements StateStore, CachedStateStore<Void, Void> {
  private static final Logger LOG = LoggerFactory.getLogger(DeltaSinkStore.class);

  private final String name;
  private final IngestOptions options;
  private TaskId task;
  private IngestEngine engine;
  private StreamsSinkMetrics metrics;
  private IngestException failure;
  /** Commits to the tables since {@link #init}: how {@link HeldKeyChanges} tells what was held over one. */
  private long commits;

  DeltaSinkStore(String name, IngestOptions options) {
    this.name = name;
    this.options = options;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(StateStoreContext context, StateStore root) {
    task = context.taskId();
    metrics = new StreamsSinkMetrics(context.metrics(), name + "." + task);
    try {
      engine = new IngestEngine(options, metrics);
    } catch (FatalIngestException e) {
      metrics.close();
      throw new StreamsException("task " + task + " cannot write tables under " + options.tableRoot() + ": " + e.getMessage(), e);
    }
    failure = null;
    commits = 0;
    context.register(root, (key, value) -> {
      throw new IllegalStateException("store " + name + " has no changelog to restore from");
    });
  }

  /**
   * Buffers {@code record}'s change; the first record of a partition opens it at the tables' position,
   * and the engine skips what they hold already. Streams cannot seek, and needs not: it resumes at its
   * committed offset, and every record below that offset that reached this sink is in the tables
   * (or held in the changelogged store of {@link HeldKeyChanges}, restored before the task processes).
   *
   * @return false when the store failed (now or before) and the record was not taken: request a commit, which fails
   * @throws BadRecordException the record cannot be written; the store moved past it, for a handler that continues
   * @throws TaskMigratedException a flush for full buffers found another instance owning a partition
   */
  boolean accept(KafkaRecord record) {
    if (failure != null) {
      return false;
    }
    try {
      if (!engine.holds(record.partition())) {
        open(record.partition());
      }
      engine.accept(record);
      if (engine.buffersFull()) {
        commitToTables();
      }
      return true;
    } catch (BadRecordException e) {
      engine.skip(record);
      throw e;
    } catch (IngestException e) {
      LOG.error("Task {}: the Delta sink failed at {}; the next commit fails with it: {}", task, record.position(), e.getMessage());
      failure = e;
      return false;
    }
  }

  /** Whether the engine's commit interval passed or a buffer is full. */
  boolean commitDue() {
    return failure == null && engine.commitDue();
  }

  /**
   * Commits every buffered change to its table; runs before Streams commits the task's offsets.
   *
   * @throws IngestException a storage failure (the changes stay buffered) or the engine's fatal error
   * @throws TaskMigratedException another instance took one of the task's partitions over: its commit fenced
   *     this one, and Streams closes this task as a zombie
   */
  void commitToTables() {
    if (failure != null) {
      throw failure;
    }
    FlushOutcome outcome = engine.flush();
    if (!outcome.seeks().isEmpty()) {
      throw new TaskMigratedException("task " + task + " no longer owns " + outcome.seeks().keySet()
          + ": another instance committed their positions to the tables under " + options.tableRoot()
          + "; the changes this task buffered for them were dropped");
    }
    if (outcome.failure().isPresent()) {
      throw outcome.failure().get();
    }
  }

  /** Streams calls this before it commits the task's offsets (see the class comment). */
  @Override
  public void flushCache() {
    commitToTables();
    commits++;
  }

  /** How many times Streams committed the task since the store was opened. */
  long commits() {
    return commits;
  }

  /**
   * Called after the offsets were committed, so there is nothing left to flush: the task processed
   * no record since {@link #flushCache()}.
   */
  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {}

  @Override
  public boolean setFlushListener(CacheFlushListener<Void, Void> listener, boolean sendOldValues) {
    return false;
  }

  @Override
  public void clearCache() {}

  /**
   * Drops what is buffered: Streams committed the task's offsets only up to what the last flush put
   * in tables (a clean close flushes first), so the next owner of the partitions reads the rest again.
   */
  @Override
  public void close() {
    if (engine != null) {
      engine.close();
      metrics.close();
      engine = null;
    }
  }

  @Override
  public boolean persistent() {
    return false;
  }

  @Override
  public boolean isOpen() {
    return engine != null;
  }

  private void open(KafkaPartition partition) {
    engine.open(List.of(partition));
    // Streams delivers from its committed offset, at or before the tables' position: the engine skips what they hold
    engine.seeksApplied();
  }
}
