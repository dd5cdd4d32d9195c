package io.mergesink.ingest.errors;

/**
 * The engine cannot go on: a table it was writing disappeared, a table it must write needs features
 * MergeSink cannot honour, the storage refuses the table root. The engine stays failed (every later
 * call throws this again); its front end stops (Connect fails the task with a {@code ConnectException}).
 */
public final class FatalIngestException extends IngestException {
  private static final long serialVersionUID = 1L;

  public FatalIngestException(String message, Throwable cause) {
    super(message, cause);
  }
}
