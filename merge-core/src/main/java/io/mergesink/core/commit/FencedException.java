package io.mergesink.core.commit;

import java.util.OptionalLong;

/**
 * A {@code txn} app id does not hold the version a commit expected ({@link TxnChange}): another
 * writer moved it, so it owns that Kafka partition now and this writer is a zombie. Nothing of the
 * attempted commit is visible; the caller drops its buffered changes and re-reads its position from
 * the table.
 */
public final class FencedException extends Exception {
  private final String appId;

  /**
   * @param version the table version that holds {@code found}
   * @param expected what the commit expected (empty: no txn of the app id)
   * @param found what the table holds (empty: none)
   */
  public FencedException(String tableRoot, String appId, long version, OptionalLong expected, OptionalLong found) {
    super("table " + tableRoot + ": txn " + appId + " is at " + describe(found) + " in version " + version + " where this writer "
        + "expected " + describe(expected) + "; another writer owns it now and this commit was abandoned");
    this.appId = appId;
  }

  private static String describe(OptionalLong txnVersion) {
    return txnVersion.isPresent() ? "version " + txnVersion.getAsLong() : "no version";
  }

  public String appId() {
    return appId;
  }
}
