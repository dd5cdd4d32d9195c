package io.mergesink.connect.align;

import org.apache.kafka.connect.errors.DataException;

/** A row or schema that does not fit a table's schema; the message names the table and column. */
public final class SchemaMismatchException extends DataException {
  private static final long serialVersionUID = 1L;

  public SchemaMismatchException(String message) {
    super(message);
  }
}
