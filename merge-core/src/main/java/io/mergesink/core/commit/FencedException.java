package io.mergesink.core.commit;

/**
 * Another writer advanced one of our {@code txn} app ids: it owns that Kafka partition now and
 * this writer is a zombie. Nothing of the attempted commit is visible; the caller drops its
 * buffered changes and re-reads its position from the table.
 */
public final class FencedException extends Exception {
  private final String appId;

  public FencedException(String tableRoot, String appId, long version, String found) {
    super("table " + tableRoot + ": txn " + appId + " was moved by another writer (version " + version + ": " + found
        + "); this writer no longer owns it and its commit was abandoned");
    this.appId = appId;
  }

  public String appId() {
    return appId;
  }
}
