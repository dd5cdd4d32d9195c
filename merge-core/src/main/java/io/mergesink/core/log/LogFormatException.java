package io.mergesink.core.log;

/**
 * A file in {@code _delta_log} does not hold what the Delta protocol says it must: malformed JSON,
 * a missing required field, an unreadable checkpoint. The message names the file and line or row.
 */
public final class LogFormatException extends RuntimeException {
  public LogFormatException(String message) {
    super(message);
  }

  public LogFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
