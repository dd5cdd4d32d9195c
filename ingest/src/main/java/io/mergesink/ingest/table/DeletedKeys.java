package io.mergesink.ingest.table;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.buffer.ChangeOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The keys of one table a task hard-deleted, each with the newest sequence it knew the key by
 * (the delete's, or the deleted row's): a change of such a key that is not newer is stale, since
 * the table no longer holds the row that would tell (docs/design.md, "Ordering and soft deletes").
 * Bounded: beyond {@code max} keys the oldest-remembered one is forgotten. In memory only: gone after
 * a restart or a rebalance. Not thread-safe.
 */
final class DeletedKeys {
  private final Map<Row, Object> sequences;

  DeletedKeys(int max) {
    this.sequences = new LinkedHashMap<>(16, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Row, Object> eldest) {
        return size() > max;
      }
    };
  }

  /** Remembers that {@code key} was deleted as of {@code sequence} (kept if it knew a newer one). */
  void deleted(Row key, Object sequence) {
    Object known = sequences.remove(key);
    sequences.put(key, known != null && ChangeOrder.compare(known, sequence) > 0 ? known : sequence);
  }

  /** The sequence {@code key} was deleted as of, or null when it is not remembered. */
  Object deletedAt(Row key) {
    return sequences.get(key);
  }

  /** Forgets every key: the table was truncated. */
  void clear() {
    sequences.clear();
  }
}
