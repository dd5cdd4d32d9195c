package io.mergesink.ingest.table;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.buffer.ChangeOrder;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The deleted keys of one table a task knows of that the table itself cannot tell of: hard-deleted
 * keys of a keyed table, each with the newest sequence it knew the key by (the delete's, or the
 * deleted row's), so that a change of such a key that is not newer is stale (docs/design.md,
 * "Ordering and soft deletes"); and deletes a history table had no version to close for, with the
 * delete's time, so that a late version of the key ends there ({@link OrderedHistory}). It knows
 * the deletes of its own commits and, where they are traced, those of other tasks'
 * ({@link DeleteTraces}). Bounded: beyond {@code max} keys the oldest-remembered one is forgotten.
 * In memory only. Not thread-safe.
 *
 * <p>Keys are held as their {@link #text} so that keys read back from a trace compare equal to
 * the rows of the task's own changes.
 */
final class DeletedKeys {
  private final Map<String, Delete> deletes;

  /**
   * A delete as remembered.
   *
   * @param sequence the sequence the key was deleted as of
   * @param time the delete's time (microseconds since the epoch, as {@code __valid_to}), or null
   */
  record Delete(Object sequence, Long time) {
    /** The newer of this delete and {@code other} (null: none). */
    Delete newer(Delete other) {
      return other != null && ChangeOrder.compare(other.sequence, sequence) > 0 ? other : this;
    }
  }

  DeletedKeys(int max) {
    this.deletes = new LinkedHashMap<>(16, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Delete> eldest) {
        return size() > max;
      }
    };
  }

  /** Remembers that {@code key} was deleted by {@code delete} (kept if it knew a newer one). */
  void deleted(Row key, Delete delete) {
    deleted(text(key), delete);
  }

  /** Remembers that the key with {@link #text} {@code key} was deleted by {@code delete}. */
  void deleted(String key, Delete delete) {
    Delete known = deletes.remove(key);
    deletes.put(key, delete.newer(known));
  }

  /** The newest delete of {@code key} remembered, or null. */
  Delete deletedAt(Row key) {
    return deletes.get(text(key));
  }

  /** Forgets every key: the table was truncated. */
  void clear() {
    deletes.clear();
  }

  /**
   * A key as text, equal for equal keys and distinct for distinct ones: each value as its Java
   * type, its length and its text (binary values in Base64).
   */
  static String text(Row key) {
    StringJoiner text = new StringJoiner(",");
    for (int i = 0; i < key.size(); i++) {
      Object value = key.get(i);
      if (value == null) {
        text.add("null");
      } else {
        String string = value instanceof byte[] bytes ? Base64.getEncoder().encodeToString(bytes) : value.toString();
        text.add(value.getClass().getSimpleName() + ":" + string.length() + ":" + string);
      }
    }
    return text.toString();
  }
}
