package io.mergesink.ingest.buffer;

import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.SourceInfo;
import io.mergesink.ingest.decode.SourceTransaction;
import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.transaction.SourceTable;
import io.mergesink.ingest.transaction.TableEventCounts;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The open part of a partition's buffer: events of source transactions not yet known complete, in
 * offset order, each with the table it goes to (none for an event that changes nothing but counts
 * towards its transaction), and the events after them. Counts each transaction's events per source
 * table, to compare with the transaction's {@code END}. Not thread-safe; no I/O.
 */
final class OpenTransactions {
  /** An event held open; {@code table} is null for one that is only counted. */
  record Held(String table, ChangeEvent event) {}

  private final ArrayDeque<Held> events = new ArrayDeque<>();
  /** Transaction id → its events held here, by source table, each once (a resent event is held but not counted again). */
  private final Map<String, TableEventCounts> counts = new HashMap<>();
  private String lastTransaction;
  private long changeCount;
  private long estimatedBytes;

  boolean isEmpty() {
    return events.isEmpty();
  }

  /** Holds {@code event}, for {@code table} (null: only counted). */
  void add(String table, ChangeEvent event) {
    events.addLast(new Held(table, event));
    SourceTransaction transaction = event.transaction();
    if (transaction != null) {
      SourceInfo source = event.source();
      counts.computeIfAbsent(transaction.id(), id -> new TableEventCounts()).add(SourceTable.of(source), transaction.dataCollectionOrder());
      lastTransaction = transaction.id();
    }
    if (table != null) {
      changeCount++;
      estimatedBytes += SizeEstimator.changeBytes(event);
    }
  }

  /** The id of the newest transaction held, or null. */
  String lastTransaction() {
    return lastTransaction;
  }

  /** The ids of the transactions held. */
  Set<String> transactions() {
    return Set.copyOf(counts.keySet());
  }

  /** The offset of the oldest event held. */
  OptionalLong firstOffset() {
    return events.isEmpty() ? OptionalLong.empty() : OptionalLong.of(events.peekFirst().event().offset());
  }

  /**
   * Takes the complete transactions at the head, with the events that follow each up to the next
   * transaction's first: a transaction is complete when its {@code END} counts, per table, as many
   * events as are held of it (all of them are here), or when a later transaction is held after it; and
   * is taken only when it ends within the cut ({@link TransactionEnds#withinCut}). With cuts
   * ({@link TransactionEnds#holdsPastCut}) a transaction within the cut is complete: the task moves the
   * cut past a transaction only once it has read all its events of the tables it reads, in whichever of
   * its partitions they are, while the {@code END} counts a table's events of every partition (a topic of
   * several partitions holds a part here).
   */
  List<Held> takeComplete(TransactionEnds ends) {
    List<Held> taken = new ArrayList<>();
    while (!events.isEmpty()) {
      SourceTransaction head = events.peekFirst().event().transaction();
      if (head != null && !(ends.withinCut(head.id())
          && (ends.holdsPastCut() || counts.size() > 1 || complete(head.id(), ends.end(head.id()))))) {
        break;
      }
      taken.addAll(takeThrough(head == null ? null : head.id()));
    }
    return taken;
  }

  /** Takes every event held. */
  List<Held> takeAll() {
    List<Held> taken = new ArrayList<>(events);
    events.clear();
    counts.clear();
    lastTransaction = null;
    changeCount = 0;
    estimatedBytes = 0;
    return taken;
  }

  /** Events held for tables. */
  long changeCount() {
    return changeCount;
  }

  /** Approximate heap bytes of the events held for tables. */
  long estimatedBytes() {
    return estimatedBytes;
  }

  private boolean complete(String id, Optional<TransactionEvent> end) {
    if (end.isEmpty()) {
      return false;
    }
    Map<String, Long> expected = end.get().tableCounts();
    TableEventCounts held = counts.getOrDefault(id, new TableEventCounts());
    for (SourceTable table : held.tables()) {
      boolean all = expected.entrySet().stream()
          .anyMatch(count -> table.isNamed(count.getKey()) && held.count(table) >= count.getValue());
      if (!all) {
        return false;
      }
    }
    return true;
  }

  /** Takes the events of transaction {@code id} at the head (or one event outside any) and the events outside any after them. */
  private List<Held> takeThrough(String id) {
    List<Held> taken = new ArrayList<>();
    while (!events.isEmpty()) {
      SourceTransaction transaction = events.peekFirst().event().transaction();
      if (transaction != null && !transaction.id().equals(id)) {
        break;
      }
      Held held = events.removeFirst();
      if (held.table() != null) {
        changeCount--;
        estimatedBytes -= SizeEstimator.changeBytes(held.event());
      }
      taken.add(held);
    }
    counts.remove(id);
    if (events.isEmpty()) {
      lastTransaction = null;
    }
    return taken;
  }
}
