package io.mergesink.ingest;

import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.ingest.align.SchemaMismatchException;
import io.mergesink.ingest.buffer.BufferLimits;
import io.mergesink.ingest.buffer.ParkedRecords;
import io.mergesink.ingest.buffer.PartitionBuffer;
import io.mergesink.ingest.buffer.RoutedRecord;
import io.mergesink.ingest.cut.CutCandidates;
import io.mergesink.ingest.cut.CutGate;
import io.mergesink.ingest.cut.CutPublisher;
import io.mergesink.ingest.catalog.TableRegistry;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.RecordDecoder;
import io.mergesink.ingest.decode.SourceInfo;
import io.mergesink.ingest.errors.BadRecordException;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.errors.RetriableStorageException;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.format.TableFormats;
import io.mergesink.ingest.maintenance.BackgroundCompaction;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.position.PartitionPositions;
import io.mergesink.ingest.position.TxnAppIds;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.route.RoutingException;
import io.mergesink.ingest.route.TableRouter;
import io.mergesink.ingest.table.KeyIndexBudget;
import io.mergesink.ingest.table.TableCatalog;
import io.mergesink.ingest.table.TableKind;
import io.mergesink.ingest.table.TableSink;
import io.mergesink.ingest.table.TopicGrowth;
import io.mergesink.ingest.transaction.KafkaTransactionEnds;
import io.mergesink.ingest.transaction.KafkaTransactionEnds.EndListener;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lands the change events of a task's Kafka partitions in tables of one table format, exactly once
 * (docs/design.md, "Data flow", "Exactly once"), for any front end: it knows Kafka positions (topic,
 * partition, offset) but neither Connect nor Streams. The front end drives it:
 *
 * <ol>
 *   <li>{@link #open} the partitions it was given: the engine reads their positions from the tables
 *       and returns the offsets to consume from (a front end that can seek seeks there; one that
 *       cannot starts at or before them, and the engine skips what its tables hold);
 *   <li>{@link #accept} each record: decoded, routed, fitted to its table, buffered per partition;
 *       a record the engine cannot write throws {@link BadRecordException} and, if the front end
 *       sets it aside, {@link #skip} moves past it;
 *   <li>{@link #flush} when {@link #commitDue()} and before the front end commits its own offsets:
 *       one commit per table with the positions of the partitions it covers; or
 *       {@link #flushInBackground}, which returns while the commits run and the front end reads on;
 *   <li>{@link #committedOffsets()}: the offsets that are in tables, for the consumer group;
 *   <li>{@link #close(Collection)} partitions it loses, {@link #close()} at the end.
 * </ol>
 *
 * <p>Single-threaded, like a sink task or a stream task: every call on the thread that drives it.
 * A flush commits different tables on a pool of its own ({@code flush.commit.threads}); with
 * {@code flush.pipelined} its commits run beside the calling thread, which meanwhile reads records
 * into {@link ParkedRecords} (docs/design.md, "Pipelined flush").
 * Errors: {@link BadRecordException} (this record), {@link RetriableStorageException} (try the call
 * again later; nothing is lost), {@link FatalIngestException} (the engine stays failed).
 */
public final class IngestEngine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IngestEngine.class);

  private final IngestOptions options;
  private final IngestMetrics metrics;
  private final RecordDecoder decoder;
  private final TableRouter router;
  private final TxnAppIds appIds;
  private final BufferLimits limits;
  private final TableKind kind;
  private final TableCatalog catalog;
  private final TableFormat format;
  private final BackgroundCompaction compactions;
  private final KeyIndexBudget indexBudget;
  private final CommitThreads commitThreads;
  private final TableRegistry registry;
  private final TopicGrowth topicGrowth;
  private final PartitionPositions positions;
  private final Map<KafkaPartition, PartitionBuffer> buffers = new LinkedHashMap<>();
  /** Records read while a flush is in flight, buffered once it landed. */
  private final ParkedRecords parked;
  private final FlushInFlight inFlight;
  /** What flushes that landed outside {@link #flush} calls reported, for the next one to return. */
  private FlushOutcome landedOutcome = FlushOutcome.COMPLETE;
  private long lastCommitMillis = System.currentTimeMillis();
  private volatile long bufferedChanges;
  private volatile int openTransactions;
  /** Where source transactions end; null when commits do not keep them whole (docs/transactions.md). */
  private final TransactionEnds transactionEnds;
  /** Consistent cuts: the task's gate, and the publisher of cuts when it holds the transaction topic; null without cuts. */
  private final CutGate cutGate;
  private final CutPublisher cutPublisher;
  private FatalIngestException fatal;
  /** Some open table's writer may still hold the scope of an earlier assignment: see {@link #reassignWriters()}. */
  private boolean writersStale;

  /**
   * An engine for the tables under {@code options.tableRoot()}, holding no partitions yet.
   *
   * @throws FatalIngestException the root's storage cannot hold tables (a scheme without atomic
   *     commits, an S3 root without a region)
   */
  public IngestEngine(IngestOptions options, IngestMetrics metrics) {
    this(options, metrics, options.transactions().cuts() ? new CutCandidates(options.transactions().cutInterval().toMillis()) : null);
  }

  private IngestEngine(IngestOptions options, IngestMetrics metrics, CutCandidates cuts) {
    this(options, metrics, options.transactions().keepsTransactionsWhole() && options.transactions().readsTransactionTopic()
        ? new KafkaTransactionEnds(options.transactions(), cuts == null ? EndListener.NONE : cuts) : TransactionEnds.NONE, cuts);
  }

  /**
   * An engine that learns where source transactions end from {@code ends} (it owns and closes them),
   * for a front end that reads the transaction topic itself; used when the options keep transactions
   * whole ({@code transaction.boundaries}).
   */
  public IngestEngine(IngestOptions options, IngestMetrics metrics, TransactionEnds ends) {
    this(options, metrics, ends, null);
  }

  /**
   * As {@link #IngestEngine(IngestOptions, IngestMetrics, TransactionEnds)}, committing up to consistent
   * cuts across tables chosen from {@code cuts}, the ends the front end read with their offsets
   * (docs/transactions.md, "Consistent cuts"); null: no cuts.
   */
  public IngestEngine(IngestOptions options, IngestMetrics metrics, TransactionEnds ends, CutCandidates cuts) {
    this.options = options;
    this.appIds = new TxnAppIds(options.txnAppId());
    this.positions = new PartitionPositions(appIds);
    if (options.transactions().keepsTransactionsWhole()) {
      this.cutGate = cuts == null ? null : new CutGate(ends, cuts, positions::lastProcessed);
      this.transactionEnds = cuts == null ? ends : cutGate;
    } else {
      ends.close();
      this.transactionEnds = null;
      this.cutGate = null;
    }
    this.metrics = metrics;
    this.decoder = new RecordDecoder(options.decoderOptions());
    this.router = new TableRouter(options.tableNameFormat());
    this.topicGrowth = new TopicGrowth(appIds);
    this.limits = new BufferLimits(options.bufferMaxRecords(), options.bufferMaxBytes());
    this.parked = new ParkedRecords(limits);
    // the table format and the table kind: chosen once here, so that buffers, sinks and flushes never ask again
    this.format = TableFormats.of(options);
    this.kind = TableKind.of(options.writeMode(), options.changeSemantics(), options.appendTombstones(), metrics);
    this.catalog = new TableCatalog(format, options, kind, positions::partitions);
    this.indexBudget = KeyIndexBudget.of(options.indexMemoryMaxBytes());
    // compactions and pipelined flushes' commits share one thread: a compaction never races a commit of its own engine
    ExecutorService background = Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, "mergesink-background-" + options.txnAppId());
      thread.setDaemon(true);
      return thread;
    });
    this.compactions = new BackgroundCompaction(background);
    this.commitThreads = new CommitThreads(options.commitThreads(), options.txnAppId());
    this.inFlight = new FlushInFlight(options.pipelinedFlush() ? background : null);
    this.registry = TableRegistry.of(options.catalog());
    this.cutPublisher = cutGate == null ? null : new CutPublisher(cuts, format, options.transactions());
  }

  /**
   * Takes over {@code assigned}: reads each partition's position from the tables. A partition the
   * engine holds already keeps its state (it was opened when its first record came).
   *
   * @return for each partition with a position in some table, the offset to consume next; the
   *     engine ignores records of these partitions until {@link #seeksApplied()}
   * @throws RetriableStorageException the tables could not be read
   */
  public Map<KafkaPartition, Long> open(Collection<KafkaPartition> assigned) {
    failIfFatal();
    List<KafkaPartition> fresh = assigned.stream().filter(partition -> !positions.holds(partition)).toList();
    if (fresh.isEmpty()) {
      return Map.of();
    }
    landFlush(); // the writers are re-read for the new partitions: no commit may use them meanwhile
    try {
      Map<KafkaPartition, Map<String, Long>> recorded = recover(fresh);
      if (cutGate != null) {
        cutGate.opened(fresh);
      }
      topicGrowth.widenLookups(catalog.open(), fresh);
      Map<KafkaPartition, Long> seeks = startAt(fresh, recorded);
      reassignWriters();
      return seeks;
    } catch (IOException e) {
      throw new RetriableStorageException("could not read the positions of " + fresh + " from the tables under "
          + options.tableRoot(), e);
    }
  }

  /** Whether the engine holds {@code partition} (it was opened and not closed since). */
  public boolean holds(KafkaPartition partition) {
    return positions.holds(partition);
  }

  /**
   * The consumer now delivers from the offsets the engine asked for ({@link #open},
   * {@link FlushOutcome#seeks()}): records of those partitions are accepted again. Connect applies
   * seeks before each poll, so its adapter calls this at the start of every batch.
   */
  public void seeksApplied() {
    if (landedOutcome.seeks().isEmpty()) { // else the front end has not been told of them yet: the next flush returns them
      positions.seeksApplied();
    }
  }

  /**
   * Buffers {@code record}'s change; a record at or below what its table holds is skipped (a replay).
   *
   * @throws BadRecordException the record cannot be written; nothing changed, its position did not
   *     advance (see {@link #skip}); or, when the exception names another position, a record read
   *     while a flush was in flight could not be written (see {@link #awaitFlush()})
   * @throws RetriableStorageException its table could not be opened or created; deliver it again
   * @throws IllegalStateException the engine does not hold the record's partition
   */
  public void accept(KafkaRecord record) {
    failIfFatal();
    KafkaPartition partition = record.partition();
    requireHeld(partition);
    if (!positions.accepts(partition, record.offset()) || cutPublisher != null && cutPublisher.publishesFor(partition)) {
      return; // the transaction topic's records: its position is the cuts published (CutPublisher)
    }
    if (inFlight.finished() || inFlight.inFlight() && parked.isFull(partition) || !inFlight.inFlight() && parked.size() > 0) {
      awaitFlush();
      if (!positions.accepts(partition, record.offset())) {
        return; // the flush found the partition fenced: it starts over from its tables
      }
    }
    RoutedRecord routed;
    try {
      routed = route(record);
    } catch (RoutingException e) {
      throw new BadRecordException(record, e.getMessage(), e);
    }
    if (routed != null && inFlight.inFlight()) {
      parked.add(routed);
      bufferedChanges++;
    } else if (routed != null) {
      buffer(routed);
    }
    positions.processed(partition, record.offset());
  }

  /**
   * Waits for the flush in flight, if any, applies what it did, and buffers the records read
   * meanwhile; its outcome is returned by the next {@link #flush} or {@link #close(Collection)}. A
   * front end that cannot attribute a {@link BadRecordException} of {@link #accept} or {@link #flush} to
   * a record it holds calls this first.
   *
   * @throws BadRecordException a record read while the flush was in flight cannot be written (the
   *     exception's partition and offset are that record's, not those of one being accepted): its
   *     position advanced already, as {@link #skip} would move it; call again for the records after it
   * @throws RetriableStorageException the table of a record read meanwhile could not be opened or
   *     created; it stays held, and the next call tries again
   * @throws FatalIngestException a table cannot be written at all
   */
  public void awaitFlush() {
    landFlush();
    for (RoutedRecord routed = parked.first(); routed != null; routed = parked.first()) {
      try {
        buffer(routed);
      } catch (BadRecordException e) {
        parked.removeFirst();
        countBuffered();
        throw e;
      }
      parked.removeFirst();
    }
    countBuffered();
  }

  /**
   * Whether the commits of a flush launched by {@link #flushInBackground} are still running: a front
   * end that only reports positions (Connect's offset commit) need not wait for them, since
   * {@link #committedOffsets()} says what landed either way.
   */
  public boolean flushRunning() {
    return inFlight.inFlight() && !inFlight.finished();
  }

  /** Records read while a flush was in flight and not buffered yet; the front end may hold them for {@link #awaitFlush}. */
  public int parkedRecords() {
    return parked.size();
  }

  /**
   * Moves past a record the front end set aside after {@link #accept} refused it (a dead letter
   * queue): its position advances as if it had changed nothing.
   */
  public void skip(KafkaRecord record) {
    requireHeld(record.partition());
    if (positions.accepts(record.partition(), record.offset())) {
      positions.processed(record.partition(), record.offset());
    }
  }

  /** Whether a flush is due: the commit interval passed since the last one, or a buffer is full. */
  public boolean commitDue() {
    return System.currentTimeMillis() - lastCommitMillis >= options.commitInterval().toMillis() || buffersFull()
        || !landedOutcome.equals(FlushOutcome.COMPLETE);
  }

  /**
   * Whether a partition's buffer, or its records read while a flush is in flight, reached the buffer
   * limits; it should not grow before a flush succeeded.
   */
  public boolean buffersFull() {
    return buffers.values().stream().anyMatch(PartitionBuffer::isFull) || parked.anyFull();
  }

  /**
   * Commits every pending change and position: one commit per table, up to {@code
   * flush.commit.threads} tables at once, and returns once they landed. Partitions another task took
   * over are dropped and reported for seeking back; storage failures leave the changes of the
   * tables they hit buffered.
   *
   * @throws FatalIngestException a table cannot be written at all; the engine stays failed
   * @throws BadRecordException see {@link #awaitFlush()}
   */
  public FlushOutcome flush() {
    return flush(FlushScope.EVERYTHING);
  }

  /**
   * As {@link #flush()}, leaving buffered what {@code scope} allows; {@link #committedOffsets()}
   * says what landed.
   */
  public FlushOutcome flush(FlushScope scope) {
    launchFlush(scope, inFlight::runHere); // a pipelined flush awaited at once: its commits need no thread of their own
    awaitFlush();
    return takeLandedOutcome();
  }

  /**
   * As {@link #flush(FlushScope)}, returning while the commits run when {@code flush.pipelined}: the
   * front end goes on with {@link #accept}, and a later call (this one, {@link #flush}, {@link
   * #close(Collection)}, {@link #awaitFlush()}, or an {@link #accept} that finds the flush landed or its
   * partition's held records at the buffer limits) waits for it and applies it. Positions move only then:
   * {@link #committedOffsets()} says what landed.
   *
   * @return how the flushes that landed since the last report ended (the one this call waited for, if any)
   */
  public FlushOutcome flushInBackground(FlushScope scope) {
    launchFlush(scope, inFlight::launch);
    if (!options.pipelinedFlush()) {
      awaitFlush();
    }
    return takeLandedOutcome();
  }

  /**
   * Lands the flush in flight, buffers the records read meanwhile, and has {@code launcher} start the
   * next flush when there is anything to commit.
   */
  private void launchFlush(FlushScope scope, Consumer<Flush> launcher) {
    failIfFatal();
    awaitFlush();
    lastCommitMillis = System.currentTimeMillis();
    advanceCuts();
    if (positions.partitions().stream().noneMatch(positions::hasUncommitted)) {
      return;
    }
    if (writersStale) {
      try {
        reassignWriters();
      } catch (IOException e) {
        report(new FlushOutcome(Map.of(), Optional.of(new RetriableStorageException("could not re-read the tables under "
            + options.tableRoot() + " for the current partitions; buffered changes are kept", e))));
        return;
      }
    }
    sealTransactions();
    Flush flush = new Flush(catalog, metrics, format, positions, buffers, scope, commitThreads,
        cutGate == null ? table -> Map.of() : cutGate::tags, compactions::takeCompacted);
    flush.plan();
    launcher.accept(flush);
  }

  /** Waits for the flush in flight, if any, and applies what it did; nothing else. */
  private void landFlush() {
    Flush flush = inFlight.land();
    if (flush == null) {
      return;
    }
    try {
      flush.apply();
    } catch (FatalIngestException e) {
      fatal = e;
      throw e;
    } catch (UnsupportedTableException | InvalidChangeSetException e) {
      // a table that needs what MergeSink cannot honour, or rows that no longer fit it (another tool retyped a column)
      fatal = new FatalIngestException(e.getMessage(), e);
      throw fatal;
    }
    if (options.compactionEnabled()) {
      compact(flush.committedTables());
    }
    register(flush.committedTables());
    indexBudget.afterFlush(catalog.open(), flush.changedTables());
    Map<KafkaPartition, Long> seeks = flush.fenced().isEmpty() ? Map.of() : rewind(flush.fenced());
    Optional<RetriableStorageException> failure = Optional.ofNullable(flush.failure())
        .map(e -> new RetriableStorageException("could not commit to the tables under " + options.tableRoot()
            + "; buffered changes are kept", e));
    countBuffered();
    report(new FlushOutcome(seeks, failure));
  }

  /** Adds {@code outcome} to what the next flush returns: the seeks of both, the first failure. */
  private void report(FlushOutcome outcome) {
    Map<KafkaPartition, Long> seeks = new LinkedHashMap<>(landedOutcome.seeks());
    seeks.putAll(outcome.seeks());
    landedOutcome = new FlushOutcome(seeks, landedOutcome.failure().or(outcome::failure));
  }

  private FlushOutcome takeLandedOutcome() {
    FlushOutcome outcome = landedOutcome;
    landedOutcome = FlushOutcome.COMPLETE;
    return outcome;
  }

  /** For each partition, the offset after the last record its tables hold: what the consumer group may commit. */
  public Map<KafkaPartition, Long> committedOffsets() {
    return positions.committedOffsets();
  }

  /**
   * Releases {@code revoked}: commits what the engine holds ({@link FlushScope#WHOLE_KEY_CHANGES}),
   * then forgets those partitions. What is not committed is dropped; the next owner reads it again
   * from the tables' positions.
   *
   * <p>The writers of the remaining partitions are then re-read for their new scope. When storage
   * fails meanwhile the release stands all the same, and the writers are re-read before the next
   * flush, the first call that looks keys up in them: a front end such as Connect fails the task on
   * any exception from its close, though nothing is lost by waiting.
   *
   * @return how the last flush ended: partitions the engine keeps may have been fenced and need a seek
   */
  public FlushOutcome close(Collection<KafkaPartition> revoked) {
    FlushOutcome outcome = FlushOutcome.COMPLETE;
    if (fatal == null) {
      try {
        outcome = flush(FlushScope.WHOLE_KEY_CHANGES);
        outcome.failure().ifPresent(e -> LOG.warn("Could not commit before releasing {}; their next owner resumes from the "
            + "tables: {}", revoked, e.getMessage()));
      } catch (FatalIngestException e) {
        LOG.warn("Could not commit before releasing {}; their next owner resumes from the tables: {}", revoked, e.getMessage());
      }
    }
    for (KafkaPartition partition : revoked) {
      positions.release(partition);
      buffers.remove(partition);
      parked.drop(partition);
    }
    if (cutGate != null) {
      cutGate.released(revoked);
    }
    countBuffered();
    try {
      reassignWriters();
    } catch (IOException e) {
      LOG.warn("Could not re-read the tables after releasing {}; they are re-read before the next commit: {}", revoked,
          e.getMessage());
    }
    Map<KafkaPartition, Long> kept = new LinkedHashMap<>(outcome.seeks());
    kept.keySet().removeAll(revoked);
    return new FlushOutcome(kept, outcome.failure());
  }

  /**
   * Stops compaction (a running one gets a few seconds to finish) and releases the storage.
   * Buffered changes are dropped: call {@link #close(Collection)} first to commit them.
   */
  @Override
  public void close() {
    try {
      inFlight.close();
    } catch (RuntimeException e) {
      LOG.warn("The flush in flight when the engine closed failed: {}", e.toString());
    }
    if (transactionEnds != null) {
      transactionEnds.close();
    }
    compactions.close();
    commitThreads.close();
    registry.close();
    format.close();
  }

  /**
   * The heap the key indexes of the open tables took after the last flush, an estimate ({@code
   * index.memory.max.bytes} bounds the idle tables' share); may be read from any thread.
   */
  public long keyIndexHeapBytes() {
    return indexBudget.heapBytes();
  }

  /** Changes buffered and not yet committed; may be read from any thread. */
  public long bufferedChanges() {
    return bufferedChanges;
  }

  /** Source transactions read in part and not yet known complete, over all partitions; may be read from any thread. */
  public int openTransactions() {
    return openTransactions;
  }

  /**
   * How far, in source time, the cut this task commits up to is behind the newest change it read of a
   * source transaction (docs/transactions.md, "Consistent cuts"); 0 without cuts. May be read from any thread.
   */
  public long cutLagMillis() {
    return cutGate == null ? 0 : cutGate.lagMillis();
  }

  /**
   * In the task that publishes cuts, how far, in source time, the newest cut published is behind the
   * newest cut a table's commit holds (docs/transactions.md, "Cut metrics"); 0 elsewhere. May be read from
   * any thread.
   */
  public long publishedCutLagMillis() {
    return cutPublisher == null ? 0 : cutPublisher.lagMillis();
  }

  /** The requests the engine's storage made so far, by kind; may be read from any thread. */
  public RequestCounts storageRequests() {
    return format.requests();
  }

  private void failIfFatal() {
    if (fatal != null) {
      throw fatal;
    }
  }

  private void requireHeld(KafkaPartition partition) {
    if (!positions.holds(partition)) {
      throw new IllegalStateException("a record of " + partition + ", which this engine does not hold; open it first");
    }
  }

  private void countBuffered() {
    bufferedChanges = buffers.values().stream().mapToLong(PartitionBuffer::changeCount).sum() + parked.size();
    openTransactions = buffers.values().stream().mapToInt(PartitionBuffer::openTransactions).sum();
  }

  /**
   * With consistent cuts: moves the cut to the newest candidate the task read all of, and, in the task
   * holding the transaction topic, buffers the cuts every table reached (docs/transactions.md).
   */
  private void advanceCuts() {
    if (cutGate == null) {
      return;
    }
    cutGate.advance();
    try {
      cutPublisher.stage(positions, buffers, catalog, transactionEnds);
    } catch (IOException e) {
      LOG.warn("Could not read the tables under {} for the cuts they reached; the next flush looks again: {}", options.tableRoot(),
          e.toString());
    }
  }

  /** Moves the complete source transactions of each buffer to the part a flush commits (docs/transactions.md). */
  private void sealTransactions() {
    int pieces = 0;
    for (PartitionBuffer buffer : buffers.values()) {
      int sealed = buffer.seal();
      if (sealed > 0 && cutGate != null) {
        cutGate.forced(buffer.transactionsInPieces());
      }
      pieces += sealed;
    }
    if (pieces > 0) {
      LOG.info("{} source transactions larger than a buffer begin to land in pieces", pieces);
      metrics.transactionsInPieces(pieces);
    }
  }

  /**
   * Decodes and routes {@code record}, touching no table: null when it changes nothing a buffer keeps
   * (a tombstone with no source block to route by).
   */
  private RoutedRecord route(KafkaRecord record) {
    ChangeEvent event = decoder.decode(record);
    if (transactionEnds != null && event.transaction() != null) {
      transactionEnds.follow(record.partition(), event.timestampMs());
    }
    long previous = positions.lastProcessed(record.partition());
    if (event.op() == Op.SKIP) {
      return new RoutedRecord(record, event, null, previous);
    }
    String table;
    try {
      table = router.route(event);
    } catch (RoutingException e) {
      if (event.op() == Op.DELETE && event.source() == SourceInfo.NONE) {
        return null; // a tombstone: no source block to route by; the delete event before it removed the row
      }
      throw e;
    }
    if (cutGate != null) {
      cutGate.read(table, event);
    }
    if (positions.isReplay(record.partition(), table, event.offset())) {
      metrics.replaySkipped();
      return new RoutedRecord(record, event, null, previous);
    }
    return new RoutedRecord(record, event, table, previous);
  }

  /**
   * Buffers the change of {@code routed}, if it makes one, fitted to its table; its position is
   * processed by the caller.
   *
   * @throws BadRecordException the record cannot be written
   * @throws RetriableStorageException its table could not be opened or created
   */
  private void buffer(RoutedRecord routed) {
    KafkaRecord record = routed.record();
    PartitionBuffer buffer = buffers.get(record.partition());
    long before = buffer.changeCount();
    try {
      place(buffer, routed);
    } catch (SchemaMismatchException e) {
      throw new BadRecordException(record, e.getMessage(), e);
    } catch (IOException e) {
      throw new RetriableStorageException("could not open or create the table of the record at " + record.position(), e);
    }
    bufferedChanges += buffer.changeCount() - before;
  }

  private void place(PartitionBuffer buffer, RoutedRecord routed) throws IOException {
    ChangeEvent event = routed.event();
    String table = routed.table();
    if (table == null) {
      buffer.pass(event);
      return;
    }
    TableSink sink;
    try {
      sink = catalog.forEvent(table, event);
    } catch (IllegalArgumentException e) {
      throw new BadRecordException(routed.record(), "table " + table + " cannot be created from it: " + e.getMessage(), e);
    }
    KafkaPartition partition = routed.record().partition();
    long previous = routed.previousOffset();
    if (sink != null && !sink.changesNothing(event, previous, positions.isReplay(partition, table, previous))) {
      buffer.add(table, sink.prepare(event));
    } else {
      buffer.pass(event);
    }
  }

  /** Schedules a compaction of each table just committed, beside ingestion; none waits for another of its table. */
  private void compact(Set<String> tables) {
    for (String table : tables) {
      try {
        TableSink sink = catalog.existing(table);
        if (sink != null) {
          sink.compaction().ifPresent(run -> compactions.schedule(table, run));
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not prepare a compaction of table {}; it is retried after the next commit: {}", table, e.toString());
      }
    }
  }

  /** Makes the catalog's entries of the tables just committed match them (a no-op without {@code catalog.type}). */
  private void register(Set<String> tables) {
    for (String table : tables) {
      try {
        TableSink sink = catalog.existing(table);
        if (sink != null) {
          registry.committed(sink.catalogEntry());
        }
      } catch (IOException e) {
        LOG.warn("Could not read table {} to register it in the catalog; it is registered after its next commit: {}", table,
            e.toString());
      }
    }
  }

  /** Drops the state of fenced partitions; returns where their tables stand now, to seek back to. */
  private Map<KafkaPartition, Long> rewind(Set<KafkaPartition> fenced) {
    List<KafkaPartition> lost = List.copyOf(fenced);
    lost.forEach(parked::drop);
    try {
      Map<KafkaPartition, Long> seeks = startAt(lost, recover(lost));
      reassignWriters();
      return seeks;
    } catch (IOException e) {
      throw new RetriableStorageException("could not re-read positions of fenced partitions " + lost, e);
    }
  }

  /** The txn versions of {@code assigned} in every table under the root, by partition and table. */
  private Map<KafkaPartition, Map<String, Long>> recover(Collection<KafkaPartition> assigned) throws IOException {
    Map<KafkaPartition, Map<String, Long>> recorded = new HashMap<>();
    for (String table : catalog.discover()) {
      TableSink sink = catalog.existing(table);
      if (sink == null || !sink.reassign(positions.partitions())) {
        continue; // deleted since it was listed
      }
      for (KafkaPartition partition : assigned) {
        sink.recordedOffset(appIds.of(partition))
            .ifPresent(offset -> recorded.computeIfAbsent(partition, p -> new HashMap<>()).put(table, offset));
      }
    }
    return recorded;
  }

  /**
   * (Re)starts {@code partitions} with empty buffers where their tables stand ({@code recorded}, by
   * partition and table); returns the offsets to consume from.
   */
  private Map<KafkaPartition, Long> startAt(List<KafkaPartition> partitions, Map<KafkaPartition, Map<String, Long>> recorded) {
    Map<KafkaPartition, Long> seeks = new LinkedHashMap<>();
    for (KafkaPartition partition : partitions) {
      Map<String, Long> held = recorded.getOrDefault(partition, Map.of());
      OptionalLong resumeAt = positions.open(partition, held);
      buffers.put(partition, transactionEnds == null
          ? new PartitionBuffer(partition.topic(), partition.partition(), kind::newPendingChanges, limits)
          : PartitionBuffer.wholeTransactions(partition.topic(), partition.partition(), kind::newPendingChanges, limits, transactionEnds));
      if (resumeAt.isPresent()) {
        seeks.put(partition, resumeAt.getAsLong());
        LOG.info("{}: resuming at offset {} (tables hold {})", partition, resumeAt.getAsLong(), held);
      } else {
        LOG.info("{}: no position in any table, starting from the consumer's offset", partition);
      }
    }
    countBuffered();
    return seeks;
  }

  /**
   * Gives every open table's writer the scope of the current partitions. A writer keeps the scope it
   * was opened with: its key index covers the files of the partitions the task held then and it tags
   * new files with their owners, so until this completes the writers count as stale and
   * {@link #flush} calls this again before it commits.
   */
  private void reassignWriters() throws IOException {
    writersStale = true;
    for (TableSink sink : catalog.open()) {
      if (!sink.reassign(positions.partitions())) {
        LOG.warn("Table {} is gone from the table root; it is created again by its next record", sink.name());
        catalog.forget(sink.name());
      }
    }
    writersStale = false;
  }
}
