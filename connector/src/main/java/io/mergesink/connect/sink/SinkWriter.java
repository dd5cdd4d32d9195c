package io.mergesink.connect.sink;

import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.connect.metrics.MetricsRegistries;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.core.merge.WriterOptions;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.snapshot.TableNotFoundException;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.Storages;
import io.mergesink.ingest.BadRecordException;
import io.mergesink.ingest.align.SchemaMismatchException;
import io.mergesink.ingest.buffer.BufferLimits;
import io.mergesink.ingest.buffer.PartitionBuffer;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.RecordDecoder;
import io.mergesink.ingest.decode.SourceInfo;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.route.RoutingException;
import io.mergesink.ingest.route.TableRouter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a sink task does, behind the thin {@link io.mergesink.connect.MergeSinkTask}:
 * recovering positions from the tables, decoding and buffering records, and committing them
 * (docs/design.md, "Exactly once"). Single-threaded, like the task.
 */
public final class SinkWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SinkWriter.class);
  /** Compaction runs between commits; no run may hold ingestion up for longer than this. */
  private static final java.time.Duration COMPACTION_TIME_BUDGET = java.time.Duration.ofSeconds(10);

  private final MergeSinkConfig config;
  private final SinkTaskContext context;
  private final RecordDecoder decoder;
  private final TableRouter router;
  private final TxnAppIds appIds;
  private final BufferLimits limits;
  private final TableCatalog catalog;
  private final BadRecordHandler badRecords;
  private final SinkMetrics metrics;
  private final Storage storage;
  private final CompactionOptions compaction;
  private final TopicGrowth topicGrowth;
  private final Map<TopicPartition, PartitionState> partitions = new LinkedHashMap<>();
  private long lastCommitMillis = System.currentTimeMillis();
  private ConnectException fatal;

  public SinkWriter(MergeSinkConfig config, SinkTaskContext context) {
    this.config = config;
    this.context = context;
    this.decoder = new RecordDecoder(config.decoderOptions());
    this.router = new TableRouter(config.tableNameTemplate());
    this.appIds = new TxnAppIds(config.txnAppId());
    this.topicGrowth = new TopicGrowth(appIds);
    this.limits = new BufferLimits(config.bufferMaxRecords(), config.bufferMaxBytes());
    this.storage = openStorage(config);
    this.catalog = new TableCatalog(storage, config, this::writerOptions);
    this.badRecords = new BadRecordHandler(config.errorTolerance(), context.errantRecordReporter());
    this.metrics = new SinkMetrics(MetricsRegistries.forTask(context, config.connectorName(), config.taskId()),
        this::bufferedChanges, storage::requests);
    this.compaction = CompactionOptions.defaults()
        .withTargetFileSizeBytes(config.fileTargetSizeBytes())
        .withMinSmallFiles(config.compactionMinFiles())
        .withDeletedRatio(config.compactionDvRatio())
        .withBudget(CompactionOptions.DEFAULT_MAX_BYTES_PER_RUN, CompactionOptions.DEFAULT_MAX_FILES_PER_RUN, COMPACTION_TIME_BUDGET);
  }

  /** Takes over {@code assigned}: reads each partition's position from the tables and seeks the consumer there. */
  public void open(Collection<TopicPartition> assigned) {
    // A partition already here was opened when its first record came (see openLate): it keeps its buffer.
    List<TopicPartition> fresh = assigned.stream().filter(partition -> !partitions.containsKey(partition)).toList();
    if (fresh.isEmpty()) {
      return;
    }
    try {
      Map<TopicPartition, Map<String, Long>> recorded = recover(fresh);
      topicGrowth.widenLookups(catalog.open(), fresh);
      for (TopicPartition partition : fresh) {
        partitions.put(partition, startAt(partition, recorded.getOrDefault(partition, Map.of())));
      }
      reassignWriters();
    } catch (IOException e) {
      throw new RetriableException("could not read positions of " + fresh + " from the tables under " + config.tableRoot(), e);
    }
  }

  /**
   * Opens the partition of a record that came before {@code open} did. Connect can deliver records
   * of a partition the consumer was just given before the task is told (a rebalance race seen under
   * the consumer group protocol of KIP-848). The partition starts as {@code open} would start it;
   * when that sends the consumer back to the tables' position, the records of the partition in
   * this batch are skipped, to come again from there.
   *
   * @throws ConnectException the record's partition is not assigned to this task at all
   */
  private PartitionState openLate(SinkRecord record) {
    TopicPartition partition = new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
    if (!context.assignment().contains(partition)) {
      throw new ConnectException("record of " + partition + " at offset " + record.originalKafkaOffset()
          + ", a partition this task was not assigned");
    }
    LOG.info("{}: a record (offset {}) came before Connect opened the partition; opening it now", partition,
        record.originalKafkaOffset());
    open(List.of(partition));
    PartitionState state = partitions.get(partition);
    if (!state.recordedOffsets().isEmpty()) {
      state.markRewound();
    }
    return state;
  }

  /** Decodes and buffers {@code records}, committing when a buffer is full or the commit interval passed. */
  public void put(Collection<SinkRecord> records) {
    if (fatal != null) {
      throw fatal;
    }
    partitions.values().forEach(PartitionState::clearRewound);
    for (SinkRecord record : records) {
      PartitionState partition = partitions.get(new TopicPartition(record.originalTopic(), record.originalKafkaPartition()));
      if (partition == null) {
        partition = openLate(record);
      }
      if (partition.rewound() || record.originalKafkaOffset() <= partition.buffer().lastOffset()) {
        continue;
      }
      try {
        buffer(partition, record);
      } catch (BadRecordException e) {
        badRecords.handle(record, e);
        metrics.deadLettered();
        partition.buffer().advance(record.originalKafkaOffset());
      } catch (RoutingException | SchemaMismatchException e) {
        badRecords.handle(record, new BadRecordException(SinkRecords.view(record), e.getMessage(), e));
        metrics.deadLettered();
        partition.buffer().advance(record.originalKafkaOffset());
      } catch (IOException e) {
        throw new RetriableException("could not open or create the table of the record at " + record.originalTopic() + "-"
            + record.originalKafkaPartition() + "@" + record.originalKafkaOffset(), e);
      }
    }
    if (commitDue()) {
      commit(partitions.values().stream().anyMatch(state -> state.buffer().isFull()));
    }
  }

  /**
   * Commits every pending change (preCommit, close). Storage failures leave the changes buffered
   * for the next attempt and are only logged here; a fatal error fails the next {@link #put}.
   */
  public void commitPending() {
    try {
      commit(false);
    } catch (RetriableException e) {
      LOG.warn("Commit failed, changes stay buffered and are retried: {}", e.getMessage());
    } catch (ConnectException e) {
      fatal = e;
      throw e;
    }
  }

  /** For each partition, the offset after the last record its tables hold: what the consumer group may commit. */
  public Map<TopicPartition, OffsetAndMetadata> committedOffsets() {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (PartitionState partition : partitions.values()) {
      long committed = partition.buffer().committedOffset();
      if (committed >= 0) {
        offsets.put(partition.partition(), new OffsetAndMetadata(committed + 1));
      }
    }
    return offsets;
  }

  /**
   * Releases {@code revoked}: commits what the task holds, then forgets those partitions. What
   * cannot be committed is dropped; the next owner reads it again from the table's position.
   */
  public void close(Collection<TopicPartition> revoked) {
    try {
      commit(false);
    } catch (ConnectException e) {
      LOG.warn("Could not commit before releasing {}; their next owner resumes from the tables: {}", revoked, e.getMessage());
    }
    revoked.forEach(partitions::remove);
    try {
      reassignWriters();
    } catch (IOException e) {
      throw new RetriableException("could not re-read the tables after releasing " + revoked, e);
    }
  }

  @Override
  public void close() {
    metrics.close();
    storage.close();
  }

  /**
   * The storage {@code table.root}'s scheme calls for; a scheme without atomic commits (or an S3
   * root without a region) stops the task, saying why.
   */
  private static Storage openStorage(MergeSinkConfig config) {
    try {
      return Storages.forRoot(config.tableRoot(), config.storageOptions());
    } catch (IllegalArgumentException e) {
      throw new ConnectException(e.getMessage(), e);
    }
  }

  private void buffer(PartitionState partition, SinkRecord record) throws IOException {
    ChangeEvent event = decoder.decode(SinkRecords.view(record));
    PartitionBuffer buffer = partition.buffer();
    if (event.op() == Op.SKIP) {
      buffer.advance(event.offset());
      return;
    }
    String table;
    try {
      table = router.route(event);
    } catch (RoutingException e) {
      if (event.op() == Op.DELETE && event.source() == SourceInfo.NONE) {
        // a tombstone: no source block to route by; the delete event before it removed the row
        buffer.advance(event.offset());
        return;
      }
      throw e;
    }
    if (partition.isReplay(table, event.offset())) {
      metrics.replaySkipped();
      buffer.advance(event.offset());
      return;
    }
    TableSink sink;
    try {
      sink = catalog.forEvent(table, event);
    } catch (IllegalArgumentException e) {
      throw new BadRecordException(SinkRecords.view(record), "table " + table + " cannot be created from it: " + e.getMessage(), e);
    }
    if (sink == null) {
      buffer.advance(event.offset());
      return;
    }
    buffer.add(table, sink.prepare(event));
  }

  private boolean commitDue() {
    return System.currentTimeMillis() - lastCommitMillis >= config.commitIntervalMs()
        || partitions.values().stream().anyMatch(state -> state.buffer().isFull());
  }

  /**
   * One commit cycle. Fenced partitions are re-read from the tables and the consumer is sent back
   * to their position; their already polled records are ignored until then.
   *
   * @param mustSucceed whether a storage failure must stop the caller (buffers are full and may
   *     not grow); otherwise it is retried at the next commit
   * @throws RetriableException when a table could not be written and {@code mustSucceed}
   */
  private void commit(boolean mustSucceed) {
    badRecords.awaitReported();
    lastCommitMillis = System.currentTimeMillis();
    List<PartitionState> dirty = new ArrayList<>();
    for (PartitionState partition : partitions.values()) {
      if (partition.buffer().hasUncommittedPosition()) {
        dirty.add(partition);
      }
    }
    if (dirty.isEmpty()) {
      return;
    }
    Flush flush = new Flush(catalog, metrics, config.writeMode() == WriteMode.APPEND);
    flush.run(dirty);
    if (config.compactionEnabled()) {
      compact(flush.committedTables());
    }
    if (!flush.fenced().isEmpty()) {
      rewind(flush.fenced());
    }
    if (flush.failure() != null && (mustSucceed && flush.fenced().isEmpty())) {
      throw new RetriableException("could not commit to the tables under " + config.tableRoot() + "; buffered changes are kept",
          flush.failure());
    }
  }

  /**
   * Compacts the tables just committed, each within the compaction budget. A failure only delays
   * compaction: the tables are complete without it.
   */
  private void compact(Set<String> tables) {
    for (String table : tables) {
      try {
        CompactionResult result = catalog.existing(table).compact(compaction);
        if (result instanceof CompactionResult.Compacted compacted) {
          LOG.info("Compacted table {} at version {}: {} files into {}, {} deleted rows purged", table, compacted.version(),
              compacted.filesRemoved(), compacted.filesAdded(), compacted.rowsPurged());
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("Compaction of table {} failed; it is retried after the next commit: {}", table, e.toString());
      }
    }
  }

  /** Drops the state of fenced partitions and seeks them back to the position their tables hold now. */
  private void rewind(Set<PartitionState> fenced) {
    List<TopicPartition> lost = fenced.stream().map(PartitionState::partition).toList();
    try {
      Map<TopicPartition, Map<String, Long>> recorded = recover(lost);
      for (TopicPartition partition : lost) {
        PartitionState fresh = startAt(partition, recorded.getOrDefault(partition, Map.of()));
        fresh.markRewound();
        partitions.put(partition, fresh);
      }
      reassignWriters();
    } catch (IOException e) {
      throw new RetriableException("could not re-read positions of fenced partitions " + lost, e);
    }
  }

  /** The txn versions of {@code assigned} in every table under the root, by partition and table. */
  private Map<TopicPartition, Map<String, Long>> recover(Collection<TopicPartition> assigned) throws IOException {
    Map<TopicPartition, Map<String, Long>> recorded = new HashMap<>();
    for (String table : catalog.discover()) {
      TableSink sink = catalog.existing(table);
      if (sink == null) {
        continue; // deleted since it was listed
      }
      sink.reassign(writerOptions());
      for (TopicPartition partition : assigned) {
        sink.recordedOffset(appIds.of(partition))
            .ifPresent(offset -> recorded.computeIfAbsent(partition, p -> new HashMap<>()).put(table, offset));
      }
    }
    return recorded;
  }

  /**
   * The state of a partition whose tables hold {@code recorded}: the consumer starts after the
   * lowest of them, and each table skips what it already holds.
   */
  private PartitionState startAt(TopicPartition partition, Map<String, Long> recorded) {
    PartitionBuffer buffer;
    if (recorded.isEmpty()) {
      buffer = new PartitionBuffer(partition.topic(), partition.partition(), config.writeMode(), limits);
      LOG.info("{}: no position in any table, starting from the consumer group's offset", partition);
    } else {
      long position = recorded.values().stream().mapToLong(Long::longValue).min().orElseThrow();
      context.offset(partition, position + 1);
      buffer = new PartitionBuffer(partition.topic(), partition.partition(), config.writeMode(), limits, position);
      LOG.info("{}: resuming at offset {} (tables hold {})", partition, position + 1, recorded);
    }
    return new PartitionState(partition, appIds.of(partition), buffer, recorded);
  }

  private void reassignWriters() throws IOException {
    for (TableSink sink : catalog.open()) {
      try {
        sink.reassign(writerOptions());
      } catch (TableNotFoundException e) {
        LOG.warn("Table {} is gone from table.root; it is created again by its next record", sink.name());
        catalog.forget(sink.name());
      }
    }
  }

  /**
   * Writer options for the current assignment (docs/design.md, "File ownership"): the task's rows
   * are owned by its partitions, and its key index covers the files that may hold rows of them.
   */
  private WriterOptions writerOptions() {
    FileOwners owners = PartitionOwners.of(partitions.keySet());
    return WriterOptions.defaults(config.effectiveMergeStrategy())
        .withParquet(ParquetWriteOptions.defaults().withCompression(config.parquetCompression().configName()))
        .withTargetFileSizeBytes(config.fileTargetSizeBytes())
        .withCheckpointInterval(config.checkpointInterval())
        .withOwners(owners, PartitionOwners.scope(owners, config.lookupScope()));
  }

  private long bufferedChanges() {
    return partitions.values().stream().mapToLong(state -> state.buffer().changeCount()).sum();
  }
}
