package io.mergesink.ingest;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.MovedRowsException;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.ingest.buffer.PartitionBuffer;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.position.FlushPlan;
import io.mergesink.ingest.position.PartitionPositions;
import io.mergesink.ingest.position.TableTxns;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.table.TableCatalog;
import io.mergesink.ingest.table.TableSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One flush: executes the {@link FlushPlan} {@link PartitionPositions} makes (docs/design.md,
 * "Exactly once"). Anchors first; then one commit per table, carrying the table's buffered
 * changes and the txns of the partitions it covers. A partition whose anchor did not land, or that
 * another task fenced, takes no part in the commits that start after that; a partition counts as
 * flushed once every commit it takes part in landed.
 *
 * <p>The commits of different tables run on {@link CommitThreads} (the anchors of one table one after
 * the other); every commit is a compare-and-set of its txns, so any subset of them landing in any
 * order is a state the exactly-once rule allows. A flush has three steps: {@link #plan()} on the
 * thread that drives the engine takes what the commits carry; {@link #commit()}, on that thread or on
 * one of its own (docs/design.md, "Pipelined flush"), touches only the tables; {@link #apply()}, back
 * on the engine's thread, records what the commits changed (positions, buffers, metrics) in plan
 * order.
 */
final class Flush {
  private static final Logger LOG = LoggerFactory.getLogger(Flush.class);
  /**
   * How often a table's change set is decided when concurrent commits keep moving the rows it was
   * decided from (a history table's, or ordered upserts' and soft deletes' looked-up rows;
   * docs/design.md, "History tables"); then the commit fails retriably, its changes buffered.
   */
  private static final int MAX_DECISIONS = 5;

  private final TableCatalog catalog;
  private final IngestMetrics metrics;
  private final TableFormat format;
  private final PartitionPositions positions;
  private final Map<KafkaPartition, PartitionBuffer> buffers;
  private final FlushScope scope;
  private final CommitThreads threads;
  /** The tags of each table's commit (a consistent cut's); anchors carry none. */
  private final Function<String, Map<String, String>> commitTags;
  /** The tables whose compaction landed since the last ask, for their writers to follow before they commit. */
  private final Supplier<List<String>> compactedTables;
  private final Set<KafkaPartition> fenced = new LinkedHashSet<>();
  private final Set<String> committedTables = new LinkedHashSet<>();
  /** The tables whose landed commit carried changes (not positions alone). */
  private final Set<String> changedTables = new LinkedHashSet<>();
  /** Partitions that take no part in the commits still to start: their anchor did not land, or another task fenced them. */
  private final Set<KafkaPartition> blocked = ConcurrentHashMap.newKeySet();
  /** Set by a commit that threw what fails the flush: the commits not started yet are left out. */
  private volatile boolean stopped;
  private IOException failure;
  private FlushPlan plan;
  private final Map<String, List<Commit>> anchorsByTable = new LinkedHashMap<>();
  private final List<Commit> commits = new ArrayList<>();
  /** The partitions of the plan by txn app id, for a commit that is fenced off the engine's thread. */
  private final Map<String, KafkaPartition> partitionsByAppId = new HashMap<>();
  private List<Attempt> anchorAttempts = List.of();
  private List<Attempt> commitAttempts = List.of();

  Flush(TableCatalog catalog, IngestMetrics metrics, TableFormat format, PartitionPositions positions,
      Map<KafkaPartition, PartitionBuffer> buffers, FlushScope scope, CommitThreads threads,
      Function<String, Map<String, String>> commitTags, Supplier<List<String>> compactedTables) {
    this.catalog = catalog;
    this.metrics = metrics;
    this.format = format;
    this.positions = positions;
    this.buffers = buffers;
    this.scope = scope;
    this.threads = threads;
    this.commitTags = commitTags;
    this.compactedTables = compactedTables;
  }

  /**
   * Decides what the flush commits, on the thread that drives the engine: the plan, and for each of
   * its commits the buffered changes and txns it carries. From here to {@link #apply()} the flush
   * reads nothing of the buffers or the positions, so the engine may buffer records meanwhile
   * elsewhere (the pipelined flush).
   */
  void plan() {
    Map<KafkaPartition, Set<String>> pendingTables = new LinkedHashMap<>();
    Set<KafkaPartition> deferred = new HashSet<>();
    Map<KafkaPartition, Long> cuts = new HashMap<>();
    buffers.forEach((partition, buffer) -> {
      buffer.sealedThrough().ifPresent(offset -> cuts.put(partition, offset)); // an open source transaction follows
      Set<String> tables = new LinkedHashSet<>();
      buffer.pending().forEach(changes -> tables.add(changes.table()));
      pendingTables.put(partition, tables);
      if (scope == FlushScope.WHOLE_KEY_CHANGES && buffer.defersFlush()) {
        deferred.add(partition);
      }
    });
    if (!deferred.isEmpty()) {
      LOG.debug("Leaving {} out of this flush: each ends in the first half of a primary-key change", deferred);
    }
    plan = positions.plan(pendingTables, deferred, cuts);
    for (TableTxns anchor : plan.anchors()) {
      anchorsByTable.computeIfAbsent(anchor.table(), table -> new ArrayList<>()).add(new Commit(anchor, List.of(), txns(anchor), Map.of()));
    }
    for (TableTxns tableCommit : plan.commits()) {
      // a partition left out holds changes of the tables' cut that this flush does not commit: no cut tags then
      Map<String, String> tags = deferred.isEmpty() ? commitTags.apply(tableCommit.table()) : Map.of();
      commits.add(new Commit(tableCommit, changesOf(tableCommit), txns(tableCommit), tags));
    }
    positions.partitions().forEach(partition -> partitionsByAppId.put(positions.appId(partition), partition));
  }

  /**
   * Runs the commits {@link #plan()} decided, anchors first, on {@link CommitThreads}; may run on any
   * thread, one at a time. It touches only the tables.
   */
  void commit() {
    followCompactions();
    List<Supplier<List<Attempt>>> anchorJobs = new ArrayList<>();
    anchorsByTable.values().forEach(anchors -> anchorJobs.add(() -> anchors.stream().map(this::anchor).toList()));
    anchorAttempts = threads.runAll(anchorJobs).stream().flatMap(List::stream).toList();
    List<Supplier<Attempt>> commitJobs = new ArrayList<>();
    commits.forEach(commit -> commitJobs.add(() -> commit(commit)));
    commitAttempts = threads.runAll(commitJobs);
  }

  /**
   * Brings the writers of tables whose compaction landed up to date, so that their commits need no
   * second plan. Here rather than before planning: a pipelined flush's commits run on the thread of
   * the compactions, after the one scheduled when the flush before landed.
   */
  private void followCompactions() {
    for (String table : compactedTables.get()) {
      try {
        TableSink sink = catalog.existing(table);
        if (sink != null) {
          sink.compacted();
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not read the compaction of table {} back; its next commit does: {}", table, e.toString());
      }
    }
  }

  /**
   * Records what {@link #commit()} did, on the thread that drives the engine, in plan order: the txns
   * that landed, the changes they carried, the partitions flushed or fenced, the first failure; then
   * rethrows what a commit threw.
   */
  void apply() {
    Set<KafkaPartition> incomplete = new HashSet<>(blocked);
    apply(anchorAttempts);
    apply(commitAttempts);
    commitAttempts.stream().filter(attempt -> attempt.outcome() != Outcome.LANDED)
        .forEach(attempt -> incomplete.addAll(attempt.commit().covered()));
    plan.flushedTo().forEach((partition, offset) -> {
      if (!incomplete.contains(partition)) {
        positions.flushed(partition, offset);
      }
    });
  }

  /** The tables that took a commit in this flush. */
  Set<String> committedTables() {
    return committedTables;
  }

  /** The tables that took changes in this flush; the others of {@link #committedTables()} took positions alone. */
  Set<String> changedTables() {
    return changedTables;
  }

  /** Partitions another task took over; their changes were not committed. */
  Set<KafkaPartition> fenced() {
    return fenced;
  }

  /** The first storage failure, or null. Changes of the tables it hit stay buffered. */
  IOException failure() {
    return failure;
  }

  private List<TableChanges> changesOf(TableTxns commit) {
    List<TableChanges> changes = new ArrayList<>();
    for (KafkaPartition partition : commit.txns().keySet()) {
      for (TableChanges pending : buffers.get(partition).pending()) {
        if (pending.table().equals(commit.table())) {
          changes.add(pending);
        }
      }
    }
    return changes;
  }

  private Map<String, TxnChange> txns(TableTxns commit) {
    Map<String, TxnChange> txns = new LinkedHashMap<>();
    commit.txns().forEach((partition, change) -> txns.put(positions.appId(partition), change));
    return txns;
  }

  /** An anchor whose partitions are not blocked yet; one that does not land blocks them. */
  private Attempt anchor(Commit anchor) {
    Attempt attempt = commit(anchor);
    if (attempt.outcome() != Outcome.LANDED) {
      blocked.addAll(anchor.covered());
    }
    return attempt;
  }

  /**
   * Commits {@code commit}'s changes with its txns unless one of its partitions is blocked; on a
   * thread of {@link CommitThreads}: it reads the plan and the buffers, and changes only the table.
   */
  private Attempt commit(Commit commit) {
    String table = commit.planned().table();
    if (stopped || commit.covered().stream().anyMatch(blocked::contains)) {
      return new Attempt(commit, Outcome.SKIPPED, null, 0, RequestCounts.ZERO, null, null);
    }
    try {
      TableSink sink = catalog.existing(table);
      if (sink == null) {
        throw new FatalIngestException("table " + table + " disappeared from the table root while the task was writing it", null);
      }
      long start = System.nanoTime();
      RequestCounts requestsBefore = format.requestsOfThisThread();
      ChangeSet changeSet;
      CommitResult result;
      for (int attempt = 1; ; attempt++) {
        changeSet = sink.changeSet(commit.changes(), commit.txns(), commit.tags());
        try {
          result = sink.commit(changeSet);
          break;
        } catch (MovedRowsException e) {
          // a concurrent commit (another task, a compaction) moved rows the change set was decided from: decide it again on the
          // table now; nothing was written or counted for this decision
          if (attempt == MAX_DECISIONS) {
            throw e;
          }
          LOG.info("Table {}: deciding the change set again, {}", table, e.getMessage());
        }
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      RequestCounts requests = format.requestsOfThisThread().minus(requestsBefore);
      LOG.info("Committed table {} version {}: {} upserts, {} deletes{}{}, {} rows written, {} deleted, {} files added, {} removed, "
              + "{} deletion vectors updated, positions {} ({} ms, {} attempts, {} replans, storage requests {})",
          table, result.version(), changeSet.upserts().size(), changeSet.deletes().size(),
          changeSet.appends().isEmpty() ? "" : ", " + changeSet.appends().size() + " appended", changeSet.truncate() ? ", truncate" : "",
          result.counts().rowsWritten(), result.counts().rowsDeleted(), result.counts().filesAdded(), result.counts().filesRemoved(),
          result.counts().deletionVectorsUpdated(), commit.txns(), millis, result.attempts(), result.replans(), requests);
      return new Attempt(commit, Outcome.LANDED, result, millis, requests, null, null);
    } catch (FencedException e) {
      LOG.warn("Fenced while committing table {}: {}", table, e.getMessage());
      KafkaPartition fencedPartition = partitionsByAppId.get(e.appId());
      if (fencedPartition != null) {
        blocked.add(fencedPartition);
      }
      return new Attempt(commit, Outcome.FENCED, null, 0, RequestCounts.ZERO, e, null);
    } catch (IOException e) {
      LOG.warn("Commit to table {} failed; its changes stay buffered and are retried: {}", table, e.toString());
      return new Attempt(commit, Outcome.FAILED, null, 0, RequestCounts.ZERO, e, null);
    } catch (RuntimeException | Error e) {
      stopped = true;
      return new Attempt(commit, Outcome.THREW, null, 0, RequestCounts.ZERO, null, e);
    }
  }

  /**
   * Records what {@code attempts} did, in plan order, on the thread that runs the flush: the txns that
   * landed, the partitions fenced, the first failure; then rethrows the first commit that threw.
   */
  private void apply(List<Attempt> attempts) {
    Throwable thrown = null;
    for (Attempt attempt : attempts) {
      TableTxns commit = attempt.commit().planned();
      switch (attempt.outcome()) {
        case LANDED -> {
          metrics.committed(attempt.millis(), attempt.result().counts().rowsWritten(), attempt.requests());
          positions.landed(commit.table(), commit.txns());
          // only what this commit carried is in the table now: an anchor carries no changes of the partitions it covers
          for (TableChanges landed : attempt.commit().changes()) {
            buffers.get(new KafkaPartition(landed.topic(), landed.partition())).committed(commit.table());
          }
          committedTables.add(commit.table());
          if (attempt.commit().changes().stream().anyMatch(landed -> !landed.changes().isEmpty() || landed.truncatedAt().isPresent())) {
            changedTables.add(commit.table());
          }
        }
        case FENCED -> {
          metrics.fenced();
          positions.partitionOf(((FencedException) attempt.failure()).appId()).ifPresent(fenced::add);
        }
        case FAILED -> {
          if (failure == null) {
            failure = (IOException) attempt.failure();
          }
        }
        case THREW -> thrown = thrown == null ? attempt.thrown() : thrown;
        case SKIPPED -> { }
      }
    }
    if (thrown instanceof RuntimeException e) {
      throw e;
    }
    if (thrown instanceof Error e) {
      throw e;
    }
  }

  /** A commit of the plan with what it carries: the buffered changes and the txns by app id. */
  private record Commit(TableTxns planned, List<TableChanges> changes, Map<String, TxnChange> txns, Map<String, String> tags) {
    Set<KafkaPartition> covered() {
      return planned.txns().keySet();
    }
  }

  private enum Outcome { LANDED, FENCED, FAILED, THREW, SKIPPED }

  /**
   * What became of one commit.
   *
   * @param failure the {@link FencedException} or {@link IOException} of a commit fenced or failed
   * @param thrown what a commit threw that fails the flush
   */
  private record Attempt(Commit commit, Outcome outcome, CommitResult result, long millis, RequestCounts requests,
      Exception failure, Throwable thrown) {}
}
