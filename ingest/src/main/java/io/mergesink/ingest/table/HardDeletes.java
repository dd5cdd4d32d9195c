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
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/** {@code delete.mode=hard}: a delete removes its key's row; the table keeps nothing of it. */
final class HardDeletes implements DeleteHandling {
  @Override
  public List<StructField> ownColumns() {
    return List.of();
  }

  @Override
  public boolean removesRows() {
    return true;
  }

  @Override
  public void markLive(Object[] values, StructType schema) {}

  @Override
  public void markDeleted(Object[] values, StructType schema, ChangeEvent delete) {}

  @Override
  public boolean matchedByDeleteClause(boolean withoutSourceTime) {
    return true;
  }

  @Override
  public MergeSpec.Builder onMatchedDelete(MergeSpec.Matched clause, List<Assignment> sequenceKept) {
    return clause.thenDelete();
  }

  @Override
  public void addLateClauses(MergeSpec.Builder spec, String sequence, Predicate<RowView> isDeleteWithoutSourceTime,
      BiPredicate<RowView, RowView> applies, List<Assignment> sequenceKept) {}

  @Override
  public void keepUnmatchedDeletes(MergeSpec.Builder spec, Condition isDelete, List<Assignment> sequenceFromSource) {}

  /** The delete is still sent: the change set carries every delete of a key it upserts nowhere. */
  @Override
  public void afterTruncate(ChangeSet.Builder builder, Row key) {
    builder.delete(key);
  }
}
