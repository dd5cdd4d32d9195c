package io.mergesink.core.table;

/** The table needs a Delta protocol version or feature that MergeSink does not implement. */
public final class UnsupportedTableException extends RuntimeException {
  public UnsupportedTableException(String tableRoot, String what) {
    super("table " + tableRoot + " uses " + what + ", which MergeSink does not support; it was left untouched");
  }
}
