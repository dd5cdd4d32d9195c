package io.mergesink.ingest.buffer;

import io.mergesink.ingest.decode.ChangeEvent;
import java.util.List;
import java.util.OptionalLong;

/**
 * The changes one partition's buffer holds for one table. How they are kept is what differs
 * between keyed tables ({@link #coalescedByKey()}) and append tables ({@link #inOffsetOrder()});
 * the engine picks one for all its tables when it is built. Not thread-safe; no I/O.
 */
public interface PendingChanges {
  /** Keyed tables in Kafka order: the last change per primary key. */
  static PendingChanges coalescedByKey() {
    return coalescedByKey(ChangeOrder.KAFKA);
  }

  /** Keyed tables: the newest change per primary key by {@code order} (docs/design.md, "Data flow"). */
  static PendingChanges coalescedByKey(ChangeOrder order) {
    return new CoalescedChanges(order);
  }

  /** Append tables: every event in offset order; nothing is merged (docs/design.md, "Append tables"). */
  static PendingChanges inOffsetOrder() {
    return new ChangeLog();
  }

  /** Takes {@code event}, from the buffer's partition, never a {@link ChangeEvent.Op#SKIP}. */
  void add(ChangeEvent event);

  /** The offset of the last truncate that applies before {@link #changes()}, if any. */
  OptionalLong truncatedAt();

  /** The changes to commit, in the order they came (first appearance of a key, when coalesced). */
  List<ChangeEvent> changes();

  /** Changes held: distinct keys when coalesced, events otherwise. */
  long changeCount();

  /** Approximate heap bytes of what is held, for {@code buffer.max.bytes}. */
  long estimatedBytes();
}
