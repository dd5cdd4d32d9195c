package io.mergesink.ingest.decode;

/**
 * A value or schema that does not convert to the table engine's types. The message names the
 * column path (e.g. {@code after.address.zip}) and what was expected and found; the decoder wraps
 * it in a {@link DecodeException} that adds the record's position.
 */
public final class ConversionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConversionException(String message) {
    super(message);
  }

  public ConversionException(String message, Throwable cause) {
    super(message, cause);
  }
}
