package io.mergesink.core.mergeinto;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.ReadSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import java.util.List;

/**
 * The decided actions of a merge, as the change set that lands them: upserts (whole rows in table
 * order; columns an UPDATE left alone hold {@link io.mergesink.core.data.Unchanged#VALUE}, which
 * the strategy fills from the target row) and deletes (keys). At most one change per key.
 *
 * @param tableSchema the table schema the rows were built for, as of the snapshot decided against
 * @param decidedFrom the keys looked up and the target rows read to decide, or null when every
 *     row was decided from the source alone: the change set lands only while they are where they
 *     were (docs/design.md, "Ordering and soft deletes")
 */
public record MergeActions(List<Row> upserts, List<Row> deletes, StructType tableSchema, ActionCounts counts, ReadSet decidedFrom) {
  public MergeActions {
    upserts = List.copyOf(upserts);
    deletes = List.copyOf(deletes);
  }

  /** Adds the actions to {@code changes} (which may carry txns of its own) and returns it. */
  public ChangeSet.Builder addTo(ChangeSet.Builder changes) {
    changes.rowSchema(tableSchema);
    if (decidedFrom != null) {
      changes.decidedFrom(decidedFrom);
    }
    upserts.forEach(changes::upsert);
    deletes.forEach(changes::delete);
    return changes;
  }
}
