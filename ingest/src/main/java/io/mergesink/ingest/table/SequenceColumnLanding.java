package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.ChangeOrder;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The change sets of keyed tables ordered by a source position whose format orders a key's rows by
 * a sequence column itself (Paimon's {@code sequence.field}; docs/paimon.md, "Order"): the table
 * is made to order by the sink's column of the position, and the coalesced changes land as they
 * are, each upsert with its position in that column, each delete naming its position, so the
 * format keeps of a key's rows the one with the newest position, whatever order they arrive in.
 *
 * <p>A hard delete leaves no row to hold its position, and the format forgets it when it compacts:
 * an older change of the key arriving later (a lagging partition of a topic that grew) would bring
 * the row back. So deletes are remembered and traced as {@link OrderedMerge} does: changes not
 * newer than a remembered delete of their key ({@link DeletedKeys}: this task's, and those other
 * tasks traced, {@link DeleteTraces}) are dropped, and a change set lands only while no commit
 * after its decision traces a delete of one of its keys.
 *
 * <p>Deletes are dropped too, although one more delete of a deleted key looks harmless: such a
 * delete (a Kafka tombstone flushed after its Debezium delete, which carries no position, or an
 * older delete from a lagging partition) sorts before the row it deleted, and Paimon's writer,
 * which this task keeps from one commit to the next, still finds that row in the lookup of its
 * bucket that it built before its own compaction marked the row deleted: the merge keeps the row
 * and the compaction writes it again (docs/paimon.md, "Order").
 */
final class SequenceColumnLanding {
  private final TableOrder order;
  private final int deletedKeysMax;
  private final DeleteTraces traces = new DeleteTraces();
  private final Map<String, DeletedKeys> deletedKeys = new HashMap<>();
  /** Per table, what its last decided change set changes in {@link #deletedKeys} when it lands. */
  private final Map<String, DeletedKeysChange> undecided = new HashMap<>();

  /** A decided change set's effect on a table's {@link DeletedKeys}: truncated first, then keys deleted as of a sequence. */
  private record DeletedKeysChange(boolean truncated, Map<Row, DeletedKeys.Delete> deleted) {}

  /**
   * @param order an order by a source position the sink keeps in a column of its own
   * @param deletedKeysMax how many hard-deleted keys are remembered per table
   * @throws IllegalArgumentException {@code order} keeps no column of its own
   */
  SequenceColumnLanding(TableOrder order, int deletedKeysMax) {
    if (order.ownColumns().isEmpty()) {
      throw new IllegalArgumentException("a table orders its rows by a sequence column of the sink's only, not in " + order);
    }
    this.order = order;
    this.deletedKeysMax = deletedKeysMax;
  }

  /** The change set of {@code latest} (one change per key) for {@code sink}'s table, in {@code builder}. */
  ChangeSet.Builder assemble(TableSink sink, ChangeSet.Builder builder, List<ChangeEvent> latest, boolean truncated)
      throws IOException {
    sink.orderBySequenceColumn(order.column());
    StructType schema = sink.schema();
    DeletedKeys deleted = deletedKeys.computeIfAbsent(sink.name(), name -> new DeletedKeys(deletedKeysMax));
    DeleteTraces.guard(builder, traces.catchUp(sink, deleted), latest.stream().map(ChangeEvent::key).toList());
    SequenceOrder changes = order.changes();
    Map<Row, DeletedKeys.Delete> deletedAsOf = new LinkedHashMap<>();
    builder.rowSchema(schema);
    for (ChangeEvent event : latest) {
      Object sequence = changes.sequence(event);
      DeletedKeys.Delete delete = truncated ? null : deleted.deletedAt(event.key());
      if (delete != null && (sequence == null || ChangeOrder.compare(sequence, delete.sequence()) <= 0)) {
        changes.skipped(event.position(), event.key(), sequence, "deleted as of " + delete.sequence());
        continue;
      }
      if (event.op() == Op.UPSERT) {
        Object[] values = sink.refit(event.valueSchema(), event.value()).toArray();
        order.setSequence(values, schema, event);
        builder.upsert(Row.of(values), event.previousKey());
      } else {
        builder.delete(event.key(), sequence);
        if (sequence != null) {
          deletedAsOf.put(event.key(), new DeletedKeys.Delete(sequence, null));
        }
      }
    }
    undecided.put(sink.name(), new DeletedKeysChange(truncated, deletedAsOf));
    changes.decided(sink.name());
    if (truncated || !deletedAsOf.isEmpty()) {
      builder.commitTag(DeleteTraces.TAG, DeleteTraces.tag(truncated, deletedAsOf));
    }
    return builder;
  }

  /** The change set last assembled for {@code table} landed: its deletes are remembered, its skips counted. */
  void landed(String table) {
    DeletedKeysChange change = undecided.remove(table);
    if (change != null) {
      DeletedKeys known = deletedKeys.computeIfAbsent(table, name -> new DeletedKeys(deletedKeysMax));
      if (change.truncated()) {
        known.clear();
      }
      change.deleted().forEach(known::deleted);
    }
    order.changes().landed(table);
  }
}
