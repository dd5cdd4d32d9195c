package io.mergesink.core.mergeinto;

import io.mergesink.core.data.Row;
import io.mergesink.core.merge.ChangeSet;
import io.mergesink.core.types.StructType;
import java.util.List;

/**
 * The decided actions of a merge, as the change set that lands them: upserts (whole rows in table
 * order; columns an UPDATE left alone hold {@link io.mergesink.core.data.Unchanged#VALUE}, which
 * the strategy fills from the target row) and deletes (keys). At most one change per key.
 *
 * @param tableSchema the table schema the rows were built for, as of the snapshot decided against
 */
public record MergeActions(List<Row> upserts, List<Row> deletes, StructType tableSchema, ActionCounts counts) {
  public MergeActions {
    upserts = List.copyOf(upserts);
    deletes = List.copyOf(deletes);
  }

  /** Adds the actions to {@code changes} (which may carry txns of its own) and returns it. */
  public ChangeSet.Builder addTo(ChangeSet.Builder changes) {
    changes.rowSchema(tableSchema);
    upserts.forEach(changes::upsert);
    deletes.forEach(changes::delete);
    return changes;
  }
}
