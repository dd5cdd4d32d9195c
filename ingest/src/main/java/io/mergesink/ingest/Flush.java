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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One flush: executes the {@link FlushPlan} {@link PartitionPositions} makes (docs/design.md,
 * "Exactly once"). Anchors first; then one commit per table, carrying the table's buffered
 * changes and the txns of the partitions it covers. A partition whose anchor did not land, or that
 * another task fenced, takes no part in the commits that follow; a partition counts as flushed once
 * every commit it takes part in landed.
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
  private final Set<KafkaPartition> fenced = new LinkedHashSet<>();
  private final Set<String> committedTables = new LinkedHashSet<>();
  private IOException failure;

  Flush(TableCatalog catalog, IngestMetrics metrics, TableFormat format, PartitionPositions positions,
      Map<KafkaPartition, PartitionBuffer> buffers, FlushScope scope) {
    this.catalog = catalog;
    this.metrics = metrics;
    this.format = format;
    this.positions = positions;
    this.buffers = buffers;
    this.scope = scope;
  }

  /** Commits what is pending; afterwards see {@link #fenced()} and {@link #failure()}. */
  void run() {
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
    FlushPlan plan = positions.plan(pendingTables, deferred, cuts);
    Set<KafkaPartition> blocked = new HashSet<>();
    for (TableTxns anchor : plan.anchors()) {
      if (anchor.txns().keySet().stream().noneMatch(blocked::contains) && !commit(anchor, List.of())) {
        blocked.addAll(anchor.txns().keySet());
      }
    }
    Set<KafkaPartition> incomplete = new HashSet<>(blocked);
    for (TableTxns commit : plan.commits()) {
      Set<KafkaPartition> covered = commit.txns().keySet();
      if (covered.stream().anyMatch(blocked::contains) || !commit(commit, changesOf(commit))) {
        incomplete.addAll(covered);
        covered.stream().filter(fenced::contains).forEach(blocked::add);
      }
    }
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

  /** Commits {@code changes} with {@code commit}'s txns; returns whether it landed. */
  private boolean commit(TableTxns commit, List<TableChanges> changes) {
    String table = commit.table();
    try {
      TableSink sink = catalog.existing(table);
      if (sink == null) {
        throw new FatalIngestException("table " + table + " disappeared from the table root while the task was writing it", null);
      }
      Map<String, TxnChange> txns = new LinkedHashMap<>();
      commit.txns().forEach((partition, change) -> txns.put(positions.appId(partition), change));
      long start = System.nanoTime();
      RequestCounts requestsBefore = format.requests();
      ChangeSet changeSet;
      CommitResult result;
      for (int attempt = 1; ; attempt++) {
        changeSet = sink.changeSet(changes, txns);
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
      RequestCounts requests = format.requests().minus(requestsBefore);
      metrics.committed(millis, result.counts().rowsWritten(), requests);
      LOG.info("Committed table {} version {}: {} upserts, {} deletes{}{}, {} rows written, {} deleted, {} files added, {} removed, "
              + "{} deletion vectors updated, positions {} ({} ms, {} attempts, {} replans, storage requests {})",
          table, result.version(), changeSet.upserts().size(), changeSet.deletes().size(),
          changeSet.appends().isEmpty() ? "" : ", " + changeSet.appends().size() + " appended", changeSet.truncate() ? ", truncate" : "",
          result.counts().rowsWritten(), result.counts().rowsDeleted(), result.counts().filesAdded(), result.counts().filesRemoved(),
          result.counts().deletionVectorsUpdated(), txns, millis, result.attempts(), result.replans(), requests);
      positions.landed(table, commit.txns());
      // only what this commit carried is in the table now: an anchor carries no changes of the partitions it covers
      for (TableChanges landed : changes) {
        buffers.get(new KafkaPartition(landed.topic(), landed.partition())).committed(table);
      }
      committedTables.add(table);
      return true;
    } catch (FencedException e) {
      metrics.fenced();
      LOG.warn("Fenced while committing table {}: {}", table, e.getMessage());
      positions.partitionOf(e.appId()).ifPresent(fenced::add);
      return false;
    } catch (IOException e) {
      LOG.warn("Commit to table {} failed; its changes stay buffered and are retried: {}", table, e.toString());
      if (failure == null) {
        failure = e;
      }
      return false;
    }
  }
}
