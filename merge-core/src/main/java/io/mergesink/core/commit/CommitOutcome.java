package io.mergesink.core.commit;

import io.mergesink.core.log.Action;
import io.mergesink.core.snapshot.Snapshot;
import java.util.List;

/** How a commit attempt ended, short of an exception. */
public sealed interface CommitOutcome {

  /**
   * The staged commit is now version {@code version} of the table.
   *
   * @param actions what the entry holds besides its {@code commitInfo}: the staged actions and the txns
   */
  record Committed(long version, int attempts, List<Action> actions) implements CommitOutcome {}

  /**
   * A concurrent commit changed files or metadata the plan relied on; nothing was published. The
   * caller plans again against {@code latest}.
   */
  record Replan(Snapshot latest, String reason) implements CommitOutcome {}
}
