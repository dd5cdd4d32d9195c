package io.mergesink.ingest;

import io.mergesink.core.commit.FencedException;
import io.mergesink.core.merge.ChangeSet;
import io.mergesink.core.merge.CommitResult;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.Storage;
import io.mergesink.ingest.buffer.BufferDrain;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.position.PartitionState;
import io.mergesink.ingest.table.ChangeSetAssembler;
import io.mergesink.ingest.table.TableCatalog;
import io.mergesink.ingest.table.TableSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One commit cycle (docs/design.md, "Exactly once"): one Delta commit per table, carrying the table's buffered changes
 * and the position of every partition that feeds it. A partition's position counts as committed
 * once every table it feeds has committed it.
 *
 * <p>A partition that feeds several tables records its position in each. For the position to be
 * recoverable as the minimum over those tables, each must hold a txn of the partition before any
 * of them holds a newer one: a table that has none yet first gets a txn-only commit at the
 * partition's previous position.
 */
final class Flush {
  private static final Logger LOG = LoggerFactory.getLogger(Flush.class);

  private final TableCatalog catalog;
  private final IngestMetrics metrics;
  private final Storage storage;
  private final boolean append;
  private final Set<PartitionState> fenced = new LinkedHashSet<>();
  private final Set<String> committedTables = new LinkedHashSet<>();
  private IOException failure;

  Flush(TableCatalog catalog, IngestMetrics metrics, Storage storage, boolean append) {
    this.catalog = catalog;
    this.metrics = metrics;
    this.storage = storage;
    this.append = append;
  }

  /** Commits the pending changes of {@code partitions}; afterwards see {@link #fenced()} and {@link #failure()}. */
  void run(List<PartitionState> partitions) {
    Map<String, List<TableChanges>> changesByTable = new LinkedHashMap<>();
    Map<String, Map<PartitionState, Long>> positionsByTable = new LinkedHashMap<>();
    Map<PartitionState, Set<String>> tablesByPartition = new LinkedHashMap<>();
    for (PartitionState partition : partitions) {
      BufferDrain pending = partition.buffer().peek();
      Set<String> tables = new LinkedHashSet<>();
      for (TableChanges changes : pending.tables()) {
        changesByTable.computeIfAbsent(changes.table(), table -> new ArrayList<>()).add(changes);
        tables.add(changes.table());
      }
      tables.addAll(partition.recordedOffsets().keySet());
      for (String table : tables) {
        positionsByTable.computeIfAbsent(table, name -> new LinkedHashMap<>()).put(partition, pending.lastOffset());
      }
      tablesByPartition.put(partition, tables);
    }
    anchor(tablesByPartition);
    Set<PartitionState> incomplete = new HashSet<>(fenced);
    for (Map.Entry<String, Map<PartitionState, Long>> table : positionsByTable.entrySet()) {
      Map<PartitionState, Long> positions = table.getValue();
      if (positions.keySet().stream().anyMatch(fenced::contains) || !commit(table.getKey(),
          changesByTable.getOrDefault(table.getKey(), List.of()), positions)) {
        incomplete.addAll(positions.keySet());
      }
    }
    for (Map.Entry<PartitionState, Set<String>> partition : tablesByPartition.entrySet()) {
      if (!incomplete.contains(partition.getKey())) {
        partition.getKey().buffer().positionCommitted(partition.getKey().buffer().lastOffset());
      }
    }
  }

  /** The tables that took a commit in this cycle. */
  Set<String> committedTables() {
    return committedTables;
  }

  /** Partitions another task took over; their changes were not committed. */
  Set<PartitionState> fenced() {
    return fenced;
  }

  /** The first storage failure, or null. Changes of the tables it hit stay buffered. */
  IOException failure() {
    return failure;
  }

  private void anchor(Map<PartitionState, Set<String>> tablesByPartition) {
    for (Map.Entry<PartitionState, Set<String>> entry : tablesByPartition.entrySet()) {
      PartitionState partition = entry.getKey();
      if (entry.getValue().size() < 2) {
        continue;
      }
      for (String table : entry.getValue()) {
        if (!partition.recordedOffsets().containsKey(table) && !fenced.contains(partition)) {
          long previous = partition.buffer().committedOffset();
          commit(table, List.of(), Map.of(partition, previous));
        }
      }
    }
  }

  /** Commits one table; returns whether it succeeded. */
  private boolean commit(String table, List<TableChanges> changes, Map<PartitionState, Long> positions) {
    try {
      TableSink sink = catalog.existing(table);
      if (sink == null) {
        throw new FatalIngestException("table " + table + " disappeared from the table root while the task was writing it", null);
      }
      Map<String, Long> txns = new LinkedHashMap<>();
      Map<String, OptionalLong> believed = new LinkedHashMap<>();
      for (Map.Entry<PartitionState, Long> position : positions.entrySet()) {
        txns.put(position.getKey().appId(), position.getValue());
        believed.put(position.getKey().appId(), believedOffset(position.getKey(), table));
      }
      ChangeSet changeSet = ChangeSetAssembler.assemble(sink, changes, txns, append);
      long start = System.nanoTime();
      RequestCounts requestsBefore = storage.requests();
      CommitResult result = sink.commit(changeSet, believed);
      long millis = (System.nanoTime() - start) / 1_000_000;
      RequestCounts requests = storage.requests().minus(requestsBefore);
      metrics.committed(millis, result.counts().rowsWritten(), requests);
      LOG.info("Committed table {} version {}: {} upserts, {} deletes{}, {} rows written, {} deleted, {} files added, {} removed, "
              + "{} deletion vectors updated, positions {} ({} ms, {} attempts, {} replans, storage requests {})",
          table, result.version(), changeSet.upserts().size(), changeSet.deletes().size(), changeSet.truncate() ? ", truncate" : "",
          result.counts().rowsWritten(), result.counts().rowsDeleted(), result.counts().filesAdded(), result.counts().filesRemoved(),
          result.counts().deletionVectorsUpdated(), txns, millis, result.attempts(), result.replans(), requests);
      for (Map.Entry<PartitionState, Long> position : positions.entrySet()) {
        position.getKey().recorded(table, position.getValue());
        position.getKey().buffer().committed(table);
      }
      committedTables.add(table);
      return true;
    } catch (FencedException e) {
      metrics.fenced();
      LOG.warn("Fenced while committing table {}: {}", table, e.getMessage());
      for (PartitionState partition : positions.keySet()) {
        if (partition.appId().equals(e.appId())) {
          fenced.add(partition);
        }
      }
      return false;
    } catch (IOException e) {
      LOG.warn("Commit to table {} failed; its changes stay buffered and are retried: {}", table, e.toString());
      if (failure == null) {
        failure = e;
      }
      return false;
    }
  }

  private static OptionalLong believedOffset(PartitionState partition, String table) {
    Long offset = partition.recordedOffsets().get(table);
    return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
  }
}
