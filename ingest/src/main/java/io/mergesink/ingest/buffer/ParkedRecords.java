package io.mergesink.ingest.buffer;

import io.mergesink.ingest.record.KafkaPartition;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The records a task reads while a flush of its buffers is in flight (the pipelined flush,
 * docs/design.md): decoded and routed, held in the order they came until the flush has landed and
 * the engine buffers them. They wait because fitting a change to its table may change the table
 * (schema evolution) and shares the table's state with the commit in flight, and because a
 * partition's buffer is what the commit carries: the changes that come after it must coalesce on
 * top of whatever of it did not land.
 *
 * <p>Each partition holds at most the buffer limits ({@code buffer.max.records}, {@code
 * buffer.max.bytes}), counted per record: the second half of a double buffer. Not thread-safe; no I/O.
 */
public final class ParkedRecords {
  private final BufferLimits limits;
  private final ArrayDeque<RoutedRecord> records = new ArrayDeque<>();
  private final Map<KafkaPartition, Size> sizes = new HashMap<>();

  public ParkedRecords(BufferLimits limits) {
    this.limits = limits;
  }

  /** Holds {@code routed} after those held already. */
  public void add(RoutedRecord routed) {
    records.addLast(routed);
    Size size = sizes.computeIfAbsent(routed.record().partition(), partition -> new Size());
    size.records++;
    size.bytes += SizeEstimator.changeBytes(routed.event());
  }

  /** The record held longest, or null when none is. */
  public RoutedRecord first() {
    return records.peekFirst();
  }

  /** Stops holding {@link #first()}: the engine buffered it, or set it aside. */
  public void removeFirst() {
    RoutedRecord removed = records.removeFirst();
    KafkaPartition partition = removed.record().partition();
    Size size = sizes.get(partition);
    size.records--;
    size.bytes -= SizeEstimator.changeBytes(removed.event());
    if (size.records == 0) {
      sizes.remove(partition);
    }
  }

  /** Drops the records of {@code partition}: it was released, or starts over from its tables. */
  public void drop(KafkaPartition partition) {
    records.removeIf(routed -> routed.record().partition().equals(partition));
    sizes.remove(partition);
  }

  /** Whether the records of {@code partition} reached the buffer limits. */
  public boolean isFull(KafkaPartition partition) {
    Size size = sizes.get(partition);
    return size != null && (size.records >= limits.maxChanges() || size.bytes >= limits.maxBytes());
  }

  /** Whether the records of some partition reached the buffer limits. */
  public boolean anyFull() {
    return sizes.keySet().stream().anyMatch(this::isFull);
  }

  /** How many records are held. */
  public int size() {
    return records.size();
  }

  private static final class Size {
    long records;
    long bytes;
  }
}
