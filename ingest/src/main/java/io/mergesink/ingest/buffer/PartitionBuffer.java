package io.mergesink.ingest.buffer;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The pending changes of one topic-partition, by table. How a table's changes are kept (coalesced
 * by key, or every event in order) is the {@link PendingChanges} the buffer is given; the buffer
 * checks what comes in and keeps the size of the whole partition.
 *
 * <p>The partition's position (what was read, what its tables hold) is not kept here but in
 * {@link io.mergesink.ingest.position.PartitionPositions}. Not thread-safe; no I/O.
 */
public final class PartitionBuffer {
  private final String topic;
  private final int partition;
  private final Supplier<PendingChanges> newTable;
  private final BufferLimits limits;
  private final Map<String, PendingChanges> tables = new LinkedHashMap<>();
  private long changeCount;
  private long estimatedBytes;
  /** The newest change is the delete that starts a primary-key change (or its tombstone): its create is not buffered yet. */
  private boolean endsInKeyChange;
  /** The old key of the primary-key change the buffer ends in, while {@link #endsInKeyChange}. */
  private Row keyChangeKey;
  private boolean deferredLastFlush;

  /**
   * @param newTable how the changes of each table are kept, e.g. {@link PendingChanges#coalescedByKey()}
   */
  public PartitionBuffer(String topic, int partition, Supplier<PendingChanges> newTable, BufferLimits limits) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.partition = partition;
    this.newTable = Objects.requireNonNull(newTable, "newTable");
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
    PendingChanges pending = tables.computeIfAbsent(table, name -> newTable.get());
    long changesBefore = pending.changeCount();
    long bytesBefore = pending.estimatedBytes();
    pending.add(event);
    // Debezium sends the old key's tombstone between the delete and the create of a key change
    boolean keyChangeTombstone = endsInKeyChange && event.tombstone() && event.key().equals(keyChangeKey);
    endsInKeyChange = event.startsKeyChange() || keyChangeTombstone;
    keyChangeKey = event.startsKeyChange() ? event.key() : keyChangeTombstone ? keyChangeKey : null;
    changeCount += pending.changeCount() - changesBefore;
    estimatedBytes += pending.estimatedBytes() - bytesBefore;
  }

  /**
   * The pending changes by table, in the order tables first appeared, leaving them in the buffer: a
   * commit that fails must not lose them. After a table's commit succeeded, {@link #committed(String)}
   * drops its changes.
   */
  public List<TableChanges> pending() {
    List<TableChanges> pending = new ArrayList<>(tables.size());
    tables.forEach((table, changes) ->
        pending.add(new TableChanges(table, topic, partition, changes.truncatedAt(), changes.changes())));
    return pending;
  }

  /** Drops the pending changes of {@code table}: they are in the table now. */
  public void committed(String table) {
    PendingChanges removed = tables.remove(table);
    if (removed != null) {
      changeCount -= removed.changeCount();
      estimatedBytes -= removed.estimatedBytes();
    }
  }

  /**
   * Asked by a flush that is about to commit this partition: whether to leave it buffered this
   * time, because its newest change is the delete that starts a primary-key change. Debezium
   * sends the create of the new key right after it, and the create's unchanged (TOAST) columns
   * come from the old key's row: committed alone, the delete would remove that row first and the
   * columns would land null. Never twice in a row, since the create may have gone to another
   * partition and never come here.
   */
  public boolean defersFlush() {
    deferredLastFlush = endsInKeyChange && !deferredLastFlush;
    return deferredLastFlush;
  }

  /** Whether the buffer holds at least {@code buffer.max.records} changes or {@code buffer.max.bytes}. */
  public boolean isFull() {
    return changeCount >= limits.maxChanges() || estimatedBytes >= limits.maxBytes();
  }

  /** Whether no table has pending changes or truncates. */
  public boolean isEmpty() {
    return tables.isEmpty();
  }

  /** Pending changes: distinct keys of keyed tables, events of append tables. */
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
}
