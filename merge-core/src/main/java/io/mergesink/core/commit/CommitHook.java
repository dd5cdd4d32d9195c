package io.mergesink.core.commit;

import java.io.IOException;

/**
 * A point in the commit path where tests inject crashes (docs/design.md, "How it is tested"): throwing here models a
 * process that died after writing its data and DV files but before its log entry appeared.
 */
@FunctionalInterface
public interface CommitHook {
  CommitHook NONE = (tableRoot, version) -> {};

  /** Called right before the commit file for {@code version} is published. */
  void beforePublish(String tableRoot, long version) throws IOException;
}
