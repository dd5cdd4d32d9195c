package io.mergesink.connect.route;

import org.apache.kafka.connect.errors.DataException;

/** A record that cannot be routed to a table (a placeholder it has no value for). */
public final class RoutingException extends DataException {
  private static final long serialVersionUID = 1L;

  public RoutingException(String message) {
    super(message);
  }
}
