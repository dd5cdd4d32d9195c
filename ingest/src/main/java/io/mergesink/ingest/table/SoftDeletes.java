package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.mergeinto.Assignment;
import io.mergesink.core.mergeinto.Condition;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.mergeinto.RowView;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * {@code delete.mode=soft}: a delete marks its key's row ({@value #DELETED} = true,
 * {@value #DELETED_AT} = the delete's source time, else its Kafka time) and keeps it; an upsert
 * makes it live again.
 */
final class SoftDeletes implements DeleteHandling {
  static final String DELETED = "__deleted";
  static final String DELETED_AT = "__deleted_at";

  @Override
  public List<StructField> ownColumns() {
    return List.of(new StructField(DELETED, PrimitiveType.BOOLEAN, true), new StructField(DELETED_AT, PrimitiveType.TIMESTAMP, true));
  }

  @Override
  public boolean removesRows() {
    return false;
  }

  @Override
  public void markLive(Object[] values, StructType schema) {
    values[schema.indexOf(DELETED)] = false;
    values[schema.indexOf(DELETED_AT)] = null;
  }

  @Override
  public void markDeleted(Object[] values, StructType schema, ChangeEvent delete) {
    values[schema.indexOf(DELETED)] = true;
    Long millis = delete.source().tsMs() != null ? delete.source().tsMs()
        : delete.timestampMs() == ChangeEvent.NO_TIMESTAMP ? null : delete.timestampMs();
    values[schema.indexOf(DELETED_AT)] = millis == null ? null : millis * 1000;
  }

  @Override
  public boolean matchedByDeleteClause(boolean withoutSourceTime) {
    return !withoutSourceTime;
  }

  @Override
  public MergeSpec.Builder onMatchedDelete(MergeSpec.Matched clause, List<Assignment> sequenceKept) {
    return clause.thenUpdate(marks(sequenceKept));
  }

  /**
   * A tombstone marks a live row (a source that sends its deletes as tombstones only) but never
   * re-marks a deleted one: the Debezium delete before it set {@value #DELETED_AT} to the delete's
   * source time. After the upsert clause, so that upserts are decided without reading the table.
   */
  @Override
  public void addLateClauses(MergeSpec.Builder spec, String sequence, Predicate<RowView> isDeleteWithoutSourceTime,
      BiPredicate<RowView, RowView> applies, List<Assignment> sequenceKept) {
    List<String> read = sequence == null ? List.of(DELETED) : List.of(DELETED, sequence);
    spec.whenMatched(Condition.withTarget(read, (s, t) -> isDeleteWithoutSourceTime.test(s) && !Boolean.TRUE.equals(t.get(DELETED))
        && applies.test(s, t))).thenUpdate(marks(sequenceKept));
  }

  /** A deleted row that never landed is kept too, with its sequence. */
  @Override
  public void keepUnmatchedDeletes(MergeSpec.Builder spec, Condition isDelete, List<Assignment> sequenceFromSource) {
    List<Assignment> marks = new ArrayList<>(List.of(Assignment.fromSource(DELETED), Assignment.fromSource(DELETED_AT)));
    marks.addAll(sequenceFromSource);
    spec.whenNotMatched(isDelete).thenInsert(marks);
  }

  /** Nothing to mark: the table was emptied first. */
  @Override
  public void afterTruncate(ChangeSet.Builder builder, Row key) {}

  /** What a soft delete sets: the marks, and the sink's sequence column. */
  private static List<Assignment> marks(List<Assignment> sequenceKept) {
    List<Assignment> marks = new ArrayList<>(List.of(Assignment.fromSource(DELETED), Assignment.fromSource(DELETED_AT)));
    marks.addAll(sequenceKept);
    return marks;
  }
}
