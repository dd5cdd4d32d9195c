package io.mergesink.ingest.buffer;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.options.WriteMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The pending changes of one topic-partition, by table.
 *
 * <p>Upsert mode: one map per table, primary key → last change, upserts and deletes together
 * (last wins). An upsert holding {@link Unchanged#VALUE} (an unchanged TOAST column) takes that
 * column from the change it replaces: the earlier upsert's value, or null after a delete or a
 * truncate in this buffer (the row is gone, so there is nothing to keep). A truncate drops the
 * table's pending changes and is remembered; changes after it are kept.
 *
 * <p>Append mode: every event is kept in offset order, truncates included; nothing is merged.
 *
 * <p>The partition's position (what was read, what its tables hold) is not kept here but in
 * {@link io.mergesink.ingest.position.PartitionPositions}. Not thread-safe; no I/O.
 */
public final class PartitionBuffer {
  private final String topic;
  private final int partition;
  private final WriteMode mode;
  private final BufferLimits limits;
  private final Map<String, PendingTable> tables = new LinkedHashMap<>();
  private long changeCount;
  private long estimatedBytes;

  public PartitionBuffer(String topic, int partition, WriteMode mode, BufferLimits limits) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.partition = partition;
    this.mode = Objects.requireNonNull(mode, "mode");
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /**
   * Buffers an event for {@code table}.
   *
   * @throws IllegalArgumentException when the event is from another partition or only advances a
   *     position ({@link Op#SKIP})
   */
  public void add(String table, ChangeEvent event) {
    if (!topic.equals(event.topic()) || partition != event.partition()) {
      throw new IllegalArgumentException("record of " + event.topic() + "-" + event.partition() + " given to the buffer of "
          + topic + "-" + partition);
    }
    if (event.op() == Op.SKIP) {
      throw new IllegalArgumentException("a " + Op.SKIP + " event at " + event.position() + " changes nothing to buffer");
    }
    Objects.requireNonNull(table, "table");
    PendingTable pending = tables.computeIfAbsent(table, name -> new PendingTable());
    if (mode == WriteMode.APPEND) {
      pending.log.add(event);
      pending.grow(1, changeBytes(event));
      return;
    }
    if (event.op() == Op.TRUNCATE) {
      for (ChangeEvent dropped : pending.byKey.values()) {
        pending.grow(-1, -changeBytes(dropped));
      }
      for (ChangeEvent kept : pending.replacedUpserts.values()) {
        pending.grow(0, -changeBytes(kept));
      }
      pending.byKey.clear();
      pending.replacedUpserts.clear();
      pending.truncatedAt = OptionalLong.of(event.offset());
      return;
    }
    ChangeEvent previous = pending.byKey.get(event.key());
    ChangeEvent merged = event.op() == Op.UPSERT ? mergeUnchanged(event, previous, pending) : event;
    if (previous != null) {
      pending.grow(-1, -changeBytes(previous));
      if (previous.op() == Op.UPSERT && merged.op() == Op.DELETE) {
        // kept for a key change that may follow the delete: its bytes stay in the buffer
        ChangeEvent displaced = pending.replacedUpserts.put(event.key(), previous);
        pending.grow(0, changeBytes(previous) - (displaced == null ? 0 : changeBytes(displaced)));
      }
    }
    pending.byKey.put(event.key(), merged);
    pending.grow(1, changeBytes(merged));
  }

  /**
   * The pending changes by table, in the order tables first appeared, leaving them in the buffer: a
   * commit that fails must not lose them. After a table's commit succeeded, {@link #committed(String)}
   * drops its changes.
   */
  public List<TableChanges> pending() {
    List<TableChanges> pending = new ArrayList<>(tables.size());
    for (Map.Entry<String, PendingTable> entry : tables.entrySet()) {
      PendingTable table = entry.getValue();
      List<ChangeEvent> changes = mode == WriteMode.APPEND ? table.log : new ArrayList<>(table.byKey.values());
      pending.add(new TableChanges(entry.getKey(), topic, partition, table.truncatedAt, changes));
    }
    return pending;
  }

  /** Drops the pending changes of {@code table}: they are in the table now. */
  public void committed(String table) {
    PendingTable removed = tables.remove(table);
    if (removed != null) {
      grow(-removed.changes, -removed.bytes);
    }
  }

  /** Whether the buffer holds at least {@code buffer.max.records} changes or {@code buffer.max.bytes}. */
  public boolean isFull() {
    return changeCount >= limits.maxChanges() || estimatedBytes >= limits.maxBytes();
  }

  /** Whether no table has pending changes or truncates. */
  public boolean isEmpty() {
    return tables.isEmpty();
  }

  /** Pending changes: distinct keys in upsert mode, events in append mode. */
  public long changeCount() {
    return changeCount;
  }

  /** Approximate heap bytes of the pending changes. */
  public long estimatedBytes() {
    return estimatedBytes;
  }

  public String topic() {
    return topic;
  }

  public int partition() {
    return partition;
  }

  private void grow(long changes, long bytes) {
    changeCount += changes;
    estimatedBytes += bytes;
  }

  private static long changeBytes(ChangeEvent event) {
    return SizeEstimator.CHANGE_OVERHEAD_BYTES + SizeEstimator.estimate(event.key())
        + SizeEstimator.estimate(event.value());
  }

  /**
   * {@code event} with its unchanged columns filled from the change it replaces, where there is
   * one: the earlier upsert of its key, or, at the end of a primary-key change, the last upsert of
   * the previous key (even if a delete of that key replaced it since).
   */
  private static ChangeEvent mergeUnchanged(ChangeEvent event, ChangeEvent previous, PendingTable pending) {
    ChangeEvent source = previous;
    if (source == null && event.previousKey() != null) {
      ChangeEvent old = pending.byKey.get(event.previousKey());
      source = old != null && old.op() == Op.UPSERT ? old : pending.replacedUpserts.get(event.previousKey());
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
        if (pending.truncatedAt.isEmpty()) {
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

  /** One table's pending state. */
  private final class PendingTable {
    final Map<Row, ChangeEvent> byKey = new LinkedHashMap<>();
    /** Upserts a later delete replaced: the old row of a primary-key change that ends in this buffer. */
    final Map<Row, ChangeEvent> replacedUpserts = new HashMap<>();
    final List<ChangeEvent> log = new ArrayList<>();
    OptionalLong truncatedAt = OptionalLong.empty();
    long changes;
    long bytes;

    void grow(long changeDelta, long byteDelta) {
      changes += changeDelta;
      bytes += byteDelta;
      PartitionBuffer.this.grow(changeDelta, byteDelta);
    }
  }
}
