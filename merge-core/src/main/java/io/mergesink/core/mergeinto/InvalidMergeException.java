package io.mergesink.core.mergeinto;

/** A merge that cannot run as given (a clause names a column the table lacks, a key in several source rows); nothing was written. */
public final class InvalidMergeException extends IllegalArgumentException {
  InvalidMergeException(String tableRoot, String problem) {
    super("table " + tableRoot + ": merge rejected, nothing written: " + problem);
  }
}
