package io.mergesink.ingest.errors;

/**
 * What the engine throws (docs/design.md, "Bad input"): a record that cannot be written ({@link BadRecordException}), storage
 * that failed for now ({@link RetriableStorageException}), or an engine that cannot go on
 * ({@link FatalIngestException}). Front ends translate these into their own errors (Connect's
 * {@code ErrantRecordReporter}, {@code RetriableException}, {@code ConnectException}; a Streams
 * application's exception handlers).
 */
public abstract class IngestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected IngestException(String message, Throwable cause) {
    super(message, cause);
  }
}
