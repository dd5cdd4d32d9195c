package io.mergesink.ingest.transaction;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The events of one source transaction read, per source table, each counted once, to compare with the
 * counts of the transaction's {@code END}: by its {@code data_collection_order}, since Debezium sends a
 * transaction's events again after its task restarts (from its last recorded position), and a resent
 * event counted twice would make a transaction look complete with an event of it still unread. An
 * event without an order (0, a flattened record without the field) counts each time. Not thread-safe.
 */
public final class TableEventCounts {
  private final Map<SourceTable, Set<Long>> orders = new HashMap<>();
  /** Stand-ins for the orders of events without one, each its own. */
  private long unordered;

  /** An event of the transaction, of {@code table}, at {@code dataCollectionOrder} among its events of the table. */
  public void add(SourceTable table, long dataCollectionOrder) {
    orders.computeIfAbsent(table, t -> new HashSet<>()).add(dataCollectionOrder > 0 ? dataCollectionOrder : --unordered);
  }

  /** The events of {@code table} read, each once. */
  public long count(SourceTable table) {
    Set<Long> read = orders.get(table);
    return read == null ? 0 : read.size();
  }

  /** The source tables of the events read. */
  public Set<SourceTable> tables() {
    return orders.keySet();
  }

  /** Forgets the events of {@code table}. */
  public void remove(SourceTable table) {
    orders.remove(table);
  }
}
