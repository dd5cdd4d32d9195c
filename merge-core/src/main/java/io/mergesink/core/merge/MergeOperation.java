package io.mergesink.core.merge;

import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.snapshot.Snapshot;
import java.io.IOException;

/**
 * One way of landing a change set (docs/design.md, "Merge strategies"): it writes the files the change set needs and
 * returns the commit that makes them visible. Planning never publishes anything; when the commit
 * is abandoned the written files are deleted or left to vacuum.
 */
public interface MergeOperation {

  /**
   * @param snapshot the table state to plan against; the key index is in step with it
   * @param changes validated changes with their keys
   */
  PlannedMerge plan(Snapshot snapshot, KeyedChanges changes) throws IOException;
}
