package io.mergesink.core.changes;

/** A change set that cannot be applied as given; nothing was written. */
public final class InvalidChangeSetException extends IllegalArgumentException {
  public InvalidChangeSetException(String tableRoot, String problem) {
    super("table " + tableRoot + ": change set rejected, nothing written: " + problem);
  }
}
