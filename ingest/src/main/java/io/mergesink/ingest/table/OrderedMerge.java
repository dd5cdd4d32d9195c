package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.mergeinto.Assignment;
import io.mergesink.core.mergeinto.Condition;
import io.mergesink.core.mergeinto.MergeActions;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.mergeinto.RowView;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.ChangeOrder;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.options.DeleteMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The change sets of keyed tables with {@code upsert.order.by} or {@code delete.mode=soft}
 * (docs/design.md, "Ordering and soft deletes"): a table's coalesced changes are the source of one
 * MERGE on its key,
 *
 * <pre>
 * WHEN MATCHED AND source is a delete AND source.seq is newer than target.seq THEN DELETE
 *                                           (soft: UPDATE SET __deleted = true, __deleted_at, seq;
 *                                            a delete with a source time only)
 * WHEN MATCHED AND source is an upsert AND source.seq is newer than target.seq THEN UPDATE SET *
 * WHEN MATCHED AND source is a delete without a source time AND NOT target.__deleted
 *                                           AND source.seq is newer than target.seq
 *                                           THEN UPDATE SET __deleted = true, __deleted_at, seq (soft)
 * WHEN NOT MATCHED AND source is an upsert THEN INSERT *
 * WHEN NOT MATCHED AND source is a delete THEN INSERT (key, seq, __deleted = true, __deleted_at)
 *                                           (soft, ordered by source.*, when the other columns are nullable)
 * </pre>
 *
 * ("newer" as {@link ChangeOrder#newer}: ties to the later change, except for {@code source.lsn};
 * in Kafka order, where the table's {@link TableOrder} names no sequence column, the sequence tests
 * are left out), which reads only the sequence column of
 * matched rows. A row without a sequence takes any change; a change without one applies only to
 * such rows, except a delete ordered by a column ({@link SequenceOrder#appliesWithoutSequence}). Upserts
 * older than a remembered hard delete of their key ({@link DeletedKeys}: this task's, and with a
 * source position those other tasks traced, {@link DeleteTraces}) are dropped before the merge. After a truncate in the batch the table is emptied first, so there is nothing to match:
 * the changes apply as they are.
 *
 * <p>The change set names the keys it looked up and the rows it read: another task's commit that
 * changed one of them makes it be decided again (docs/design.md, "Ordering and soft deletes"). So
 * deciding has no lasting effect: the deleted keys it found and the stale changes it skipped are
 * remembered and counted when the change set lands ({@link #landed}).
 */
final class OrderedMerge {
  /** The source-only column that tells deletes from upserts; never a table column. */
  private static final String IS_DELETE = "__mergesink_is_delete";
  /**
   * The source-only column that tells a delete without a source time: a Kafka tombstone (or a
   * rewritten delete without {@code __source_ts_ms}), whose {@code __deleted_at} could only be
   * Kafka's time. Never a table column.
   */
  private static final String IS_TOMBSTONE = "__mergesink_is_tombstone";

  private final TableOrder order;
  private final DeleteHandling deletes;
  private final int deletedKeysMax;
  private final Map<String, DeletedKeys> deletedKeys = new HashMap<>();
  /** With hard deletes ordered by a source position: the deletes other tasks' commits traced. */
  private final DeleteTraces traces;
  /** Per table, what its last decided change set changes in {@link #deletedKeys} when it lands. */
  private final Map<String, DeletedKeysChange> undecided = new HashMap<>();

  /** A decided change set's effect on a table's {@link DeletedKeys}: truncated first, then keys deleted as of a sequence. */
  private record DeletedKeysChange(boolean truncated, Map<Row, DeletedKeys.Delete> deleted) {}

  /** Ordered by {@code order}, deletes as {@code deleteMode} says; {@code deletedKeysMax} hard-deleted keys remembered per table. */
  OrderedMerge(TableOrder order, DeleteMode deleteMode, int deletedKeysMax) {
    this.order = order;
    this.deletes = DeleteHandling.of(deleteMode);
    this.deletedKeysMax = deletedKeysMax;
    this.traces = order.tracesDeletes() && deletes.removesRows() ? new DeleteTraces() : null;
  }

  /** The columns the sink adds to keyed tables: the source position it orders by, the soft-delete marks. */
  List<StructField> ownColumns() {
    List<StructField> columns = new ArrayList<>(order.ownColumns());
    columns.addAll(deletes.ownColumns());
    return columns;
  }

  /**
   * The change set of {@code latest} (one change per key) for {@code sink}'s table, decided against
   * the table the writer holds, in {@code builder}.
   */
  ChangeSet.Builder assemble(TableSink sink, ChangeSet.Builder builder, List<ChangeEvent> latest, boolean truncated)
      throws IOException {
    StructType schema = sink.schema();
    DeletedKeys deleted = deletedKeys(sink.name());
    long tracedThrough = traces == null ? -1 : traces.catchUp(sink, deleted);
    if (truncated) {
      decided(sink.name(), new DeletedKeysChange(true, Map.of()));
      if (traces != null) {
        builder.commitTag(DeleteTraces.TAG, DeleteTraces.tag(true, Map.of()));
      }
      return truncating(sink, builder, schema, latest);
    }
    List<Row> source = new ArrayList<>(latest.size());
    List<ChangeEvent> deletesOfBatch = new ArrayList<>();
    SequenceOrder changes = order.changes();
    for (ChangeEvent event : latest) {
      if (event.op() == Op.UPSERT) {
        DeletedKeys.Delete delete = deleted.deletedAt(event.key());
        Object sequence = changes.sequence(event);
        if (delete != null && (sequence == null || ChangeOrder.compare(sequence, delete.sequence()) <= 0)) {
          changes.skipped(event.position(), event.key(), sequence, "deleted as of " + delete.sequence());
          continue;
        }
        source.add(sourceRow(schema, tableRow(sink, schema, event), false, false));
      } else {
        source.add(sourceRow(schema, deleteRow(sink, schema, event), true, event.source().tsMs() == null));
        deletesOfBatch.add(event);
      }
    }
    Map<Row, Object> deletedRowSequences = new LinkedHashMap<>();
    MergeActions actions = sink.decide(spec(sink, schema, deletedRowSequences), source);
    // soft deletes too: a delete of a key the table does not hold leaves no row to keep its sequence;
    // in Kafka order neither the deletes nor the rows have one, and no key is remembered
    Map<Row, DeletedKeys.Delete> deletedAsOf = new LinkedHashMap<>();
    for (ChangeEvent event : deletesOfBatch) {
      Object sequence = newest(changes.sequence(event), deletedRowSequences.get(event.key()));
      if (sequence != null) {
        deletedAsOf.put(event.key(), new DeletedKeys.Delete(sequence, null));
      }
    }
    decided(sink.name(), new DeletedKeysChange(false, deletedAsOf));
    if (traces != null) {
      DeleteTraces.guard(builder, tracedThrough, latest.stream().map(ChangeEvent::key).toList());
      if (!deletedAsOf.isEmpty()) {
        builder.commitTag(DeleteTraces.TAG, DeleteTraces.tag(false, deletedAsOf));
      }
    }
    // the actions name what they were decided from (MergeActions#decidedFrom)
    actions.addTo(builder);
    return builder;
  }

  /** The change set last assembled for {@code table} landed: what deciding it found takes effect. */
  void landed(String table) {
    DeletedKeysChange change = undecided.remove(table);
    if (change != null) {
      DeletedKeys deleted = deletedKeys(table);
      if (change.truncated()) {
        deleted.clear();
      }
      change.deleted().forEach(deleted::deleted);
    }
    order.changes().landed(table);
  }

  private void decided(String table, DeletedKeysChange change) {
    undecided.put(table, change);
    order.changes().decided(table);
  }

  private DeletedKeys deletedKeys(String table) {
    return deletedKeys.computeIfAbsent(table, name -> new DeletedKeys(deletedKeysMax));
  }

  /** After a truncate: the upserts land on an empty table, deletes have nothing to delete (hard deletes are still sent). */
  private ChangeSet.Builder truncating(TableSink sink, ChangeSet.Builder builder, StructType schema, List<ChangeEvent> latest) {
    builder.rowSchema(schema).truncate();
    for (ChangeEvent event : latest) {
      if (event.op() == Op.UPSERT) {
        builder.upsert(tableRow(sink, schema, event), event.previousKey());
      } else {
        deletes.afterTruncate(builder, event.key());
      }
    }
    return builder;
  }

  private MergeSpec spec(TableSink sink, StructType schema, Map<Row, Object> deletedRowSequences) {
    StructType sourceSchema = schema.add(new StructField(IS_DELETE, PrimitiveType.BOOLEAN, false))
        .add(new StructField(IS_TOMBSTONE, PrimitiveType.BOOLEAN, false));
    List<String> key = sink.keySchema().fieldNames();
    String sequence = order.column();
    List<Assignment> sequenceKept = order.sequenceKept();
    MergeSpec.Builder spec = MergeSpec.builder(sourceSchema, key);
    Condition delete;
    Condition upsert;
    if (sequence == null) {
      delete = Condition.onSource(row -> isDelete(row) && deletes.matchedByDeleteClause(isTombstone(row)));
      upsert = Condition.onSource(row -> !isDelete(row));
    } else {
      // the op is tested first, so each matched row's sequences are compared (and a stale one counted) once
      delete = Condition.withTarget(List.of(sequence), (s, t) -> {
        if (!isDelete(s) || !deletes.matchedByDeleteClause(isTombstone(s))) {
          return false;
        }
        deletedRowSequences.put(key(s, key), t.get(sequence));
        return notOlder(s, t, sequence, key);
      });
      upsert = Condition.withTarget(List.of(sequence), (s, t) -> !isDelete(s) && notOlder(s, t, sequence, key));
    }
    deletes.onMatchedDelete(spec.whenMatched(delete), sequenceKept);
    List<Assignment> all = new ArrayList<>();
    for (StructField field : schema.fields()) {
      if (key.contains(field.name())) {
        continue;
      }
      all.add(order.assignment(field.name()));
    }
    spec.whenMatched(upsert).thenUpdate(all);
    deletes.addLateClauses(spec, sequence, row -> isDelete(row) && isTombstone(row),
        (s, t) -> sequence == null || notOlder(s, t, sequence, key), sequenceKept);
    spec.whenNotMatched(Condition.onSource(row -> !isDelete(row))).thenInsert(fromSource(all));
    if (order.keepsUnmatchedDeletes(schema, key)) {
      // a delete of a key the table does not hold keeps its sequence where the handling keeps a row: ordering stays exact after a restart
      deletes.keepUnmatchedDeletes(spec, Condition.onSource(OrderedMerge::isDelete), fromSource(sequenceKept));
    }
    return spec.build();
  }

  /** {@code assignments} for an INSERT: every value from the source (there is no target row). */
  private static List<Assignment> fromSource(List<Assignment> assignments) {
    return assignments.stream()
        .map(assignment -> assignment.targetColumns().isEmpty() ? assignment : Assignment.fromSource(assignment.column())).toList();
  }

  /** Whether the source row's change applies to the target row: see {@link ChangeOrder#replaces}. */
  private boolean notOlder(RowView source, RowView target, String sequence, List<String> key) {
    Object incoming = source.get(sequence);
    Object held = target.get(sequence);
    SequenceOrder changes = order.changes();
    if (held == null || (incoming == null ? isDelete(source) && changes.deletesApplyWithoutSequence() : changes.newer(incoming, held))) {
      return true;
    }
    changes.skipped("in the batch", key(source, key), incoming, held);
    return false;
  }

  private static Row key(RowView row, List<String> key) {
    Object[] values = new Object[key.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.get(key.get(i));
    }
    return Row.of(values);
  }

  private static boolean isDelete(RowView row) {
    return (Boolean) row.get(IS_DELETE);
  }

  private static boolean isTombstone(RowView row) {
    return (Boolean) row.get(IS_TOMBSTONE);
  }

  private static Object newest(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return ChangeOrder.compare(a, b) >= 0 ? a : b;
  }

  /** An upsert's row in the table's current schema with the sink's columns set: its sequence, live. */
  private Row tableRow(TableSink sink, StructType schema, ChangeEvent event) {
    Object[] values = sink.refit(event.valueSchema(), event.value()).toArray();
    order.setSequence(values, schema, event);
    deletes.markLive(values, schema);
    return Row.of(values);
  }

  /** A delete as a row of the table's schema: its key, its sequence, the soft-delete marks; null elsewhere. */
  private Row deleteRow(TableSink sink, StructType schema, ChangeEvent event) {
    Object[] values = new Object[schema.size()];
    StructType keySchema = sink.keySchema();
    for (int k = 0; k < keySchema.size(); k++) {
      values[schema.indexOf(keySchema.field(k).name())] = event.key().get(k);
    }
    order.setSequence(values, schema, event);
    deletes.markDeleted(values, schema, event);
    return Row.of(values);
  }

  private static Row sourceRow(StructType schema, Row row, boolean isDelete, boolean isTombstone) {
    Object[] values = new Object[schema.size() + 2];
    for (int i = 0; i < schema.size(); i++) {
      values[i] = row.get(i);
    }
    values[schema.size()] = isDelete;
    values[schema.size() + 1] = isTombstone;
    return Row.of(values);
  }
}
