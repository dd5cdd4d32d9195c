package io.mergesink.ingest.route;

/**
 * A record that cannot be routed to a table (a placeholder it has no value for). The engine reports
 * it as a {@link io.mergesink.ingest.errors.BadRecordException}.
 */
public final class RoutingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RoutingException(String message) {
    super(message);
  }
}
