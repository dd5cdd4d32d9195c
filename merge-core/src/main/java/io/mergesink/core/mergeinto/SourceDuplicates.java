package io.mergesink.core.mergeinto;

/** What a key that occurs in several source rows means. */
public enum SourceDuplicates {
  /**
   * An error naming the key (the default): a target row must be matched by at most one source
   * row (SQL MERGE), and the table holds at most one row per key, so two rows of a key cannot be
   * inserted either.
   */
  REJECT,
  /**
   * The source is a coalesced change stream: the last row of each key stands for it, the others
   * are dropped before matching (what the connector's buffer does).
   */
  LAST_WINS
}
