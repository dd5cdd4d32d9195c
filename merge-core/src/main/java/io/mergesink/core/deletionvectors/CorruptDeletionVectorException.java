package io.mergesink.core.deletionvectors;

import java.io.IOException;

/**
 * A deletion vector's bytes are not what its descriptor promises: a wrong size field, checksum,
 * magic number or cardinality, or a bitmap that does not parse. The message names the file (or
 * the inline descriptor), the offset, what was expected and what was found.
 */
public final class CorruptDeletionVectorException extends IOException {
  private static final long serialVersionUID = 1L;

  public CorruptDeletionVectorException(String message) {
    super(message);
  }

  public CorruptDeletionVectorException(String message, Throwable cause) {
    super(message, cause);
  }
}
