package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.TxnChange;
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
import io.mergesink.ingest.options.ChangeSemantics;
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
 * without ordering the sequence tests are left out), which reads only the sequence column of
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
  static final String DELETED = "__deleted";
  static final String DELETED_AT = "__deleted_at";
  /** The source-only column that tells deletes from upserts; never a table column. */
  private static final String IS_DELETE = "__mergesink_is_delete";
  /**
   * The source-only column that tells a delete without a source time: a Kafka tombstone (or a
   * rewritten delete without {@code __source_ts_ms}), whose {@code __deleted_at} could only be
   * Kafka's time. Never a table column.
   */
  private static final String IS_TOMBSTONE = "__mergesink_is_tombstone";

  private final ChangeSemantics semantics;
  private final SequenceOrder order;
  private final Map<String, DeletedKeys> deletedKeys = new HashMap<>();
  /** With hard deletes ordered by a source position: the deletes other tasks' commits traced. */
  private final DeleteTraces traces;
  /** Per table, what its last decided change set changes in {@link #deletedKeys} when it lands. */
  private final Map<String, DeletedKeysChange> undecided = new HashMap<>();

  /** A decided change set's effect on a table's {@link DeletedKeys}: truncated first, then keys deleted as of a sequence. */
  private record DeletedKeysChange(boolean truncated, Map<Row, DeletedKeys.Delete> deleted) {}

  OrderedMerge(ChangeSemantics semantics, SequenceOrder order) {
    this.semantics = semantics;
    this.order = order;
    this.traces = semantics.orderBy().sinkColumn() && semantics.deleteMode() == DeleteMode.HARD ? new DeleteTraces() : null;
  }

  /** The columns the sink adds to keyed tables: the source position it orders by, the soft-delete marks. */
  List<StructField> ownColumns() {
    List<StructField> columns = new ArrayList<>();
    if (semantics.orderBy().sinkColumn()) {
      columns.add(new StructField(semantics.orderBy().column(), PrimitiveType.LONG, true));
    }
    if (semantics.deleteMode() == DeleteMode.SOFT) {
      columns.add(new StructField(DELETED, PrimitiveType.BOOLEAN, true));
      columns.add(new StructField(DELETED_AT, PrimitiveType.TIMESTAMP, true));
    }
    return columns;
  }

  /**
   * The change set of {@code latest} (one change per key) for {@code sink}'s table, decided against
   * the table the writer holds, with {@code txns}, built by {@code builder}.
   */
  ChangeSet assemble(TableSink sink, ChangeSet.Builder builder, List<ChangeEvent> latest, boolean truncated,
      Map<String, TxnChange> txns) throws IOException {
    StructType schema = sink.schema();
    DeletedKeys deleted = deletedKeys(sink.name());
    if (traces != null) {
      traces.catchUp(sink, deleted);
    }
    if (truncated) {
      decided(sink.name(), new DeletedKeysChange(true, Map.of()));
      if (traces != null) {
        builder.commitTag(DeleteTraces.TAG, DeleteTraces.tag(true, Map.of()));
      }
      return truncating(sink, builder, schema, latest, txns);
    }
    List<Row> source = new ArrayList<>(latest.size());
    List<ChangeEvent> deletes = new ArrayList<>();
    for (ChangeEvent event : latest) {
      if (event.op() == Op.UPSERT) {
        DeletedKeys.Delete delete = deleted.deletedAt(event.key());
        Object sequence = order.sequence(event);
        if (delete != null && (sequence == null || ChangeOrder.compare(sequence, delete.sequence()) <= 0)) {
          order.skipped(event.position(), event.key(), sequence, "deleted as of " + delete.sequence());
          continue;
        }
        source.add(sourceRow(schema, tableRow(sink, schema, event), false, false));
      } else {
        source.add(sourceRow(schema, deleteRow(sink, schema, event), true, event.source().tsMs() == null));
        if (semantics.ordered()) {
          deletes.add(event);
        }
      }
    }
    Map<Row, Object> deletedRowSequences = new LinkedHashMap<>();
    MergeActions actions = sink.decide(spec(sink, schema, deletedRowSequences), source);
    // soft deletes too: a delete of a key the table does not hold leaves no row to keep its sequence
    Map<Row, DeletedKeys.Delete> deletedAsOf = new LinkedHashMap<>();
    for (ChangeEvent event : deletes) {
      Object sequence = newest(order.sequence(event), deletedRowSequences.get(event.key()));
      if (sequence != null) {
        deletedAsOf.put(event.key(), new DeletedKeys.Delete(sequence, null));
      }
    }
    decided(sink.name(), new DeletedKeysChange(false, deletedAsOf));
    if (traces != null) {
      DeleteTraces.guard(builder, sink, latest.stream().map(ChangeEvent::key).toList());
      if (!deletedAsOf.isEmpty()) {
        builder.commitTag(DeleteTraces.TAG, DeleteTraces.tag(false, deletedAsOf));
      }
    }
    // the actions name what they were decided from (MergeActions#decidedFrom)
    actions.addTo(builder);
    txns.forEach(builder::txn);
    return builder.build();
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
    order.landed(table);
  }

  private void decided(String table, DeletedKeysChange change) {
    undecided.put(table, change);
    order.decided(table);
  }

  private DeletedKeys deletedKeys(String table) {
    return deletedKeys.computeIfAbsent(table, name -> new DeletedKeys(semantics.deletedKeysMax()));
  }

  /** After a truncate: the upserts land on an empty table, deletes have nothing to delete (hard deletes are still sent). */
  private ChangeSet truncating(TableSink sink, ChangeSet.Builder builder, StructType schema, List<ChangeEvent> latest,
      Map<String, TxnChange> txns) {
    builder.rowSchema(schema).truncate();
    for (ChangeEvent event : latest) {
      if (event.op() == Op.UPSERT) {
        builder.upsert(tableRow(sink, schema, event), event.previousKey());
      } else if (semantics.deleteMode() == DeleteMode.HARD) {
        builder.delete(event.key());
      }
    }
    txns.forEach(builder::txn);
    return builder.build();
  }

  private MergeSpec spec(TableSink sink, StructType schema, Map<Row, Object> deletedRowSequences) {
    StructType sourceSchema = schema.add(new StructField(IS_DELETE, PrimitiveType.BOOLEAN, false))
        .add(new StructField(IS_TOMBSTONE, PrimitiveType.BOOLEAN, false));
    List<String> key = sink.keySchema().fieldNames();
    String sequence = semantics.ordered() ? semantics.orderBy().column() : null;
    boolean soft = semantics.deleteMode() == DeleteMode.SOFT;
    MergeSpec.Builder spec = MergeSpec.builder(sourceSchema, key);
    Condition delete;
    Condition upsert;
    if (sequence == null) {
      delete = Condition.onSource(row -> isDelete(row) && !(soft && isTombstone(row)));
      upsert = Condition.onSource(row -> !isDelete(row));
    } else {
      // the op is tested first, so each matched row's sequences are compared (and a stale one counted) once
      delete = Condition.withTarget(List.of(sequence), (s, t) -> {
        if (!isDelete(s) || (soft && isTombstone(s))) {
          return false;
        }
        deletedRowSequences.put(key(s, key), t.get(sequence));
        return notOlder(s, t, sequence, key);
      });
      upsert = Condition.withTarget(List.of(sequence), (s, t) -> !isDelete(s) && notOlder(s, t, sequence, key));
    }
    if (soft) {
      spec.whenMatched(delete).thenUpdate(marks(sequence));
    } else {
      spec.whenMatched(delete).thenDelete();
    }
    List<Assignment> all = new ArrayList<>();
    for (StructField field : schema.fields()) {
      if (key.contains(field.name())) {
        continue;
      }
      all.add(semantics.orderBy().sinkColumn() && field.name().equals(sequence) ? keepingTarget(sequence)
          : Assignment.fromSource(field.name()));
    }
    spec.whenMatched(upsert).thenUpdate(all);
    if (soft) {
      // A tombstone marks a live row (a source that sends its deletes as tombstones only) but never
      // re-marks a deleted one: the Debezium delete before it set __deleted_at to the delete's
      // source time. After the upsert clause, so that upserts are decided without reading the table.
      List<String> read = sequence == null ? List.of(DELETED) : List.of(DELETED, sequence);
      spec.whenMatched(Condition.withTarget(read, (s, t) -> isDelete(s) && isTombstone(s) && !Boolean.TRUE.equals(t.get(DELETED))
          && (sequence == null || notOlder(s, t, sequence, key)))).thenUpdate(marks(sequence));
    }
    spec.whenNotMatched(Condition.onSource(row -> !isDelete(row))).thenInsert(fromSource(all));
    if (semantics.orderBy().sinkColumn() && semantics.deleteMode() == DeleteMode.SOFT && tombstonesFit(schema, key)) {
      // a deleted row that never landed is kept too, with its sequence: ordering stays exact after a restart
      spec.whenNotMatched(Condition.onSource(OrderedMerge::isDelete)).thenInsert(fromSource(marks(sequence)));
    }
    return spec.build();
  }

  /** What a soft delete sets: the marks, and the sink's sequence column. */
  private List<Assignment> marks(String sequence) {
    List<Assignment> marks = new ArrayList<>(List.of(Assignment.fromSource(DELETED), Assignment.fromSource(DELETED_AT)));
    if (semantics.orderBy().sinkColumn()) {
      marks.add(keepingTarget(sequence));
    }
    return marks;
  }

  /** {@code assignments} for an INSERT: every value from the source (there is no target row). */
  private static List<Assignment> fromSource(List<Assignment> assignments) {
    return assignments.stream()
        .map(assignment -> assignment.targetColumns().isEmpty() ? assignment : Assignment.fromSource(assignment.column())).toList();
  }

  /** Whether a row with only the key, the sequence and the soft-delete marks fits the table: every other column is nullable. */
  private boolean tombstonesFit(StructType schema, List<String> key) {
    return schema.fields().stream().allMatch(field -> field.nullable() || key.contains(field.name()));
  }

  /** The sink's sequence column from the source, or the target's when the change carries none. */
  private static Assignment keepingTarget(String sequence) {
    return Assignment.withTarget(sequence, List.of(sequence), (s, t) -> s.get(sequence) != null ? s.get(sequence) : t.get(sequence));
  }

  /** Whether the source row's change applies to the target row: see {@link ChangeOrder#replaces}. */
  private boolean notOlder(RowView source, RowView target, String sequence, List<String> key) {
    Object incoming = source.get(sequence);
    Object held = target.get(sequence);
    if (held == null || (incoming == null ? isDelete(source) && order.deletesApplyWithoutSequence() : order.newer(incoming, held))) {
      return true;
    }
    order.skipped("in the batch", key(source, key), incoming, held);
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
    if (semantics.orderBy().sinkColumn()) {
      values[schema.indexOf(semantics.orderBy().column())] = order.sequence(event);
    }
    if (semantics.deleteMode() == DeleteMode.SOFT) {
      values[schema.indexOf(DELETED)] = false;
      values[schema.indexOf(DELETED_AT)] = null;
    }
    return Row.of(values);
  }

  /** A delete as a row of the table's schema: its key, its sequence, the soft-delete marks; null elsewhere. */
  private Row deleteRow(TableSink sink, StructType schema, ChangeEvent event) {
    Object[] values = new Object[schema.size()];
    StructType keySchema = sink.keySchema();
    for (int k = 0; k < keySchema.size(); k++) {
      values[schema.indexOf(keySchema.field(k).name())] = event.key().get(k);
    }
    if (semantics.orderBy().sinkColumn()) {
      values[schema.indexOf(semantics.orderBy().column())] = order.sequence(event);
    }
    if (semantics.deleteMode() == DeleteMode.SOFT) {
      values[schema.indexOf(DELETED)] = true;
      Long millis = event.source().tsMs() != null ? event.source().tsMs()
          : event.timestampMs() == ChangeEvent.NO_TIMESTAMP ? null : event.timestampMs();
      values[schema.indexOf(DELETED_AT)] = millis == null ? null : millis * 1000;
    }
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
