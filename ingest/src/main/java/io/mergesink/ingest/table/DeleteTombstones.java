package io.mergesink.ingest.table;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Recognises the Kafka tombstone Debezium sends right after each delete event
 * ({@code tombstones.on.delete}), so that an append table records the delete once (docs/design.md,
 * "Append tables"). A tombstone follows its key's delete when the record processed just before it
 * in its partition is a delete of the same key in the same table. That record is known from memory
 * when this task recorded it: the last recorded change of each partition, kept across flushes and
 * rebalances (the record at a Kafka offset never changes). Otherwise, when the table accounts for it
 * (the tombstone is the first record after a task took the partition over, or it follows records
 * that changed nothing), it is read back from the table, whose row of it names its position.
 * Not thread-safe.
 */
final class DeleteTombstones {
  private final Map<Partition, Recorded> last = new HashMap<>();

  /**
   * Whether {@code tombstone} follows the delete of its key in {@code sink}'s table: the record
   * before it is at {@code previousOffset}, which the table accounts for when {@code previousInTable}.
   * A tombstone that does is remembered as its partition's last change, as a delete.
   *
   * @throws IOException reading the table failed
   */
  boolean followsDelete(TableSink sink, ChangeEvent tombstone, long previousOffset, boolean previousInTable) throws IOException {
    Recorded previous = last.get(Partition.of(tombstone));
    boolean follows;
    if (previous != null && previous.offset() == previousOffset) {
      follows = previous.table().equals(sink.name()) && tombstone.key().equals(previous.deletedKey());
    } else {
      follows = previousInTable && AuditRows.isDelete(sink, tombstone.topic(), tombstone.partition(), previousOffset,
          tombstone.keySchema(), tombstone.key());
    }
    if (follows) {
      recorded(sink, tombstone);
    }
    return follows;
  }

  /** {@code event}, a change of {@code sink}'s table, is the last one recorded of its partition. */
  void recorded(TableSink sink, ChangeEvent event) {
    last.put(Partition.of(event), new Recorded(event.offset(), sink.name(), event.op() == Op.DELETE ? event.key() : null));
  }

  private record Partition(String topic, int partition) {
    static Partition of(ChangeEvent event) {
      return new Partition(event.topic(), event.partition());
    }
  }

  /** A recorded change: its offset, its table, and its key when it is a delete. */
  private record Recorded(long offset, String table, Row deletedKey) {}
}
