package io.mergesink.ingest.buffer;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The changes of a keyed table: one map primary key → newest change, upserts and deletes together
 * (the last delivered, or by source sequence with {@code upsert.order.by}: see {@link ChangeOrder};
 * an older change than the one held is dropped). An upsert holding {@link Unchanged#VALUE} (an unchanged TOAST column) takes that
 * column from the change it replaces: the earlier upsert's value, or null after a delete or a
 * truncate in this buffer (the row is gone, so there is nothing to keep). A truncate drops the
 * pending changes and is remembered; changes after it are kept.
 */
final class CoalescedChanges implements PendingChanges {
  private final ChangeOrder order;
  private final Map<Row, ChangeEvent> byKey = new LinkedHashMap<>();
  /** Upserts a later delete replaced: the old row of a primary-key change that ends in this buffer. */
  private final Map<Row, ChangeEvent> replacedUpserts = new HashMap<>();
  private OptionalLong truncatedAt = OptionalLong.empty();
  private long bytes;

  CoalescedChanges(ChangeOrder order) {
    this.order = order;
  }

  @Override
  public void add(ChangeEvent event) {
    if (event.op() == Op.TRUNCATE) {
      byKey.clear();
      replacedUpserts.clear();
      bytes = 0;
      truncatedAt = OptionalLong.of(event.offset());
      return;
    }
    ChangeEvent previous = byKey.get(event.key());
    if (previous != null && !order.replaces(event, previous)) {
      order.stale(event, order.sequence(previous));
      return;
    }
    ChangeEvent merged = event.op() == Op.UPSERT ? mergeUnchanged(event, previous) : event;
    if (previous != null) {
      bytes -= SizeEstimator.changeBytes(previous);
      if (previous.op() == Op.UPSERT && merged.op() == Op.DELETE) {
        // kept for a key change that may follow the delete: its bytes stay in the buffer
        ChangeEvent displaced = replacedUpserts.put(event.key(), previous);
        bytes += SizeEstimator.changeBytes(previous) - (displaced == null ? 0 : SizeEstimator.changeBytes(displaced));
      }
    }
    byKey.put(event.key(), merged);
    bytes += SizeEstimator.changeBytes(merged);
  }

  @Override
  public OptionalLong truncatedAt() {
    return truncatedAt;
  }

  @Override
  public List<ChangeEvent> changes() {
    return List.copyOf(byKey.values());
  }

  @Override
  public long changeCount() {
    return byKey.size();
  }

  @Override
  public long estimatedBytes() {
    return bytes;
  }

  /**
   * {@code event} with its unchanged columns filled from the change it replaces, where there is
   * one: the earlier upsert of its key, or, at the end of a primary-key change, the last upsert of
   * the previous key (even if a delete of that key replaced it since).
   */
  private ChangeEvent mergeUnchanged(ChangeEvent event, ChangeEvent previous) {
    ChangeEvent source = previous;
    if (source == null && event.previousKey() != null) {
      ChangeEvent old = byKey.get(event.previousKey());
      source = old != null && old.op() == Op.UPSERT ? old : replacedUpserts.get(event.previousKey());
    }
    Object[] values = null;
    Row row = event.value();
    StructType schema = event.valueSchema();
    for (int i = 0; i < row.size(); i++) {
      if (row.get(i) != Unchanged.VALUE) {
        continue;
      }
      Object replacement;
      if (source == null) {
        if (truncatedAt.isEmpty()) {
          continue; // the table's live row, if any, supplies it at merge time
        }
        replacement = null; // truncated in this batch: no live row remains
      } else if (source.op() == Op.DELETE) {
        replacement = null;
      } else {
        int index = source.valueSchema().indexOf(schema.field(i).name());
        if (index < 0) {
          continue;
        }
        replacement = source.value().get(index);
      }
      if (values == null) {
        values = row.toArray();
      }
      values[i] = replacement;
    }
    if (values == null) {
      return event;
    }
    return event.with(event.op(), event.key(), event.keySchema(), Row.of(values), schema, event.previousKey());
  }
}
