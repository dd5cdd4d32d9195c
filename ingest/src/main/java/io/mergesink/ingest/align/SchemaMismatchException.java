package io.mergesink.ingest.align;

/**
 * A row or schema that does not fit a table's schema; the message names the table and column. The
 * engine reports it as a {@link io.mergesink.ingest.errors.BadRecordException} naming the record.
 */
public final class SchemaMismatchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SchemaMismatchException(String message) {
    super(message);
  }
}
