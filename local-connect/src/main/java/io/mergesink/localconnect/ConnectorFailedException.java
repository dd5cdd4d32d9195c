package io.mergesink.localconnect;

/** A connector or one of its tasks is in state FAILED: waiting longer cannot help. */
public final class ConnectorFailedException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  ConnectorFailedException(String message) {
    super(message);
  }
}
