package io.mergesink.core.snapshot;

/**
 * The log of a table cannot be replayed into a snapshot: a commit is missing between the checkpoint
 * and the requested version, the requested version does not exist, or the replay yields no
 * protocol or metadata. The message names the table, the versions and the file concerned.
 */
public final class InvalidTableException extends RuntimeException {
  public InvalidTableException(String message) {
    super(message);
  }
}
