package io.mergesink.quickstart;

/** A connector or one of its tasks is in state FAILED: waiting longer cannot help. */
final class ConnectorFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ConnectorFailedException(String message) {
    super(message);
  }
}
