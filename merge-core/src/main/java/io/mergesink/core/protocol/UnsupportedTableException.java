package io.mergesink.core.protocol;

/** The table needs a Delta protocol version or feature that MergeSink does not implement. */
public final class UnsupportedTableException extends RuntimeException {
  public UnsupportedTableException(String tableRoot, String what) {
    super("table " + tableRoot + " uses " + what + ", which MergeSink does not support; it was left untouched");
  }

  private UnsupportedTableException(String message) {
    super(message);
  }

  /** The table uses something MergeSink supports, in a way it does not: {@code reason} says which. */
  public static UnsupportedTableException notWritable(String tableRoot, String reason) {
    return new UnsupportedTableException("table " + tableRoot + " cannot be written by MergeSink: " + reason + "; it was left untouched");
  }
}
