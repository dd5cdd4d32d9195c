package io.mergesink.core.commit;

import io.mergesink.core.log.Action;
import io.mergesink.core.snapshot.Snapshot;
import java.util.List;

/** How a commit attempt ended, short of an exception. */
public sealed interface CommitOutcome {

  /**
   * The staged commit is now version {@code version} of the table.
   *
   * @param actions the actions published (without {@code commitInfo}): the staged ones, with the
   *     row ids and commit versions row tracking assigned for that version, and the txns
   */
  record Committed(long version, int attempts, List<Action> actions) implements CommitOutcome {
    public Committed {
      actions = List.copyOf(actions);
    }
  }

  /**
   * A concurrent commit changed files or metadata the plan relied on; nothing was published. The
   * caller plans again against {@code latest}.
   */
  record Replan(Snapshot latest, String reason) implements CommitOutcome {}
}
