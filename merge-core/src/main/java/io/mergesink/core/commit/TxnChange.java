package io.mergesink.core.commit;

import java.util.OptionalLong;

/**
 * A compare-and-set of one Delta {@code txn} app id (docs/design.md, "Exactly once"): the commit
 * moves the app id to {@code version} only if the table holds {@code expected} when it lands;
 * otherwise another writer owns the app id now and the commit is refused ({@link FencedException}).
 *
 * @param expected the version the writer believes the table holds; empty when it holds none
 * @param version the version the commit records: the last Kafka offset the table accounts for
 */
public record TxnChange(OptionalLong expected, long version) {
  public TxnChange {
    java.util.Objects.requireNonNull(expected, "expected");
    if (expected.isPresent() && version < expected.getAsLong()) {
      throw new IllegalArgumentException("a txn version may not move back, from " + expected.getAsLong() + " to " + version);
    }
  }

  /** The first version of an app id the table does not hold yet. */
  public static TxnChange first(long version) {
    return new TxnChange(OptionalLong.empty(), version);
  }

  /** From {@code expected}, which the table holds, to {@code version}. */
  public static TxnChange from(long expected, long version) {
    return new TxnChange(OptionalLong.of(expected), version);
  }
}
