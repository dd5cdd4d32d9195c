package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.mergeinto.Assignment;
import io.mergesink.core.mergeinto.Condition;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.mergeinto.RowView;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.options.DeleteMode;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * What a delete does to a keyed table ({@code delete.mode}, docs/design.md, "Ordering and soft
 * deletes"): removes the key's row ({@link HardDeletes}), or marks it deleted and keeps it
 * ({@link SoftDeletes}). Chosen once per engine; {@link OrderedMerge} asks it for every
 * decision that differs, so that no other class tests the mode.
 */
sealed interface DeleteHandling permits HardDeletes, SoftDeletes {
  static DeleteHandling of(DeleteMode mode) {
    return switch (mode) {
      case HARD -> new HardDeletes();
      case SOFT -> new SoftDeletes();
    };
  }

  /** The columns this handling keeps in keyed tables. */
  List<StructField> ownColumns();

  /** Whether a delete removes its key's row (so it can be traced for other tasks, {@link DeleteTraces}). */
  boolean removesRows();

  /** Sets the marks of an upsert's row, {@code values} of {@code schema}: it is live. */
  void markLive(Object[] values, StructType schema);

  /** Sets the marks of {@code delete}'s row, {@code values} of {@code schema}. */
  void markDeleted(Object[] values, StructType schema, ChangeEvent delete);

  /** Whether a delete applies through the first matched clause; a soft delete without a source time has a clause of its own. */
  boolean matchedByDeleteClause(boolean withoutSourceTime);

  /**
   * The action of the matched-delete clause {@code clause}: delete the row, or mark it.
   *
   * @param sequenceKept the assignments that keep the sink's sequence column (none when it has none)
   */
  MergeSpec.Builder onMatchedDelete(MergeSpec.Matched clause, List<Assignment> sequenceKept);

  /**
   * Adds the clauses after the upserts': a soft delete without a source time marks a live row, never
   * a deleted one again.
   *
   * @param isDeleteWithoutSourceTime whether a source row is such a delete
   * @param applies whether a source row's change applies to the target row (its sequence is not older), tested last
   */
  void addLateClauses(MergeSpec.Builder spec, String sequence, Predicate<RowView> isDeleteWithoutSourceTime,
      BiPredicate<RowView, RowView> applies, List<Assignment> sequenceKept);

  /**
   * Adds the clause that keeps a delete of a key the table does not hold, ordered by a sink column:
   * a soft delete's row, so that ordering stays exact after a restart.
   */
  void keepUnmatchedDeletes(MergeSpec.Builder spec, Condition isDelete, List<Assignment> sequenceFromSource);

  /** A delete of {@code key} after a truncate in the same change set: the table was emptied first. */
  void afterTruncate(ChangeSet.Builder builder, Row key);
}
