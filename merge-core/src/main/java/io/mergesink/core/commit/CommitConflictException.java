package io.mergesink.core.commit;

import java.io.IOException;

/** Concurrent commits kept winning for longer than the retry budget. Nothing was committed; retrying later is safe. */
public final class CommitConflictException extends IOException {
  public CommitConflictException(String tableRoot, int attempts, long lastVersionTried) {
    super("table " + tableRoot + ": gave up after " + attempts + " commit attempts lost to concurrent writers (last version tried "
        + lastVersionTried + "); nothing was committed");
  }
}
