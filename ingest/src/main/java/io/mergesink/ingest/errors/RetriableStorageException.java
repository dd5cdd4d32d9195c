package io.mergesink.ingest.errors;

import java.io.IOException;

/**
 * The tables' storage failed (a file system or S3 error, concurrent writers that kept winning):
 * nothing is lost, the engine keeps what it buffered and the same call can be made again later.
 * Connect's adapter throws it on as a {@code RetriableException}, so the worker redelivers the batch.
 */
public final class RetriableStorageException extends IngestException {
  private static final long serialVersionUID = 1L;

  public RetriableStorageException(String message, IOException cause) {
    super(message + ": " + cause.getMessage(), cause);
  }
}
