package io.mergesink.core.snapshot;

/** There is no Delta table at a path: no {@code _delta_log} directory or no commit or checkpoint in it. */
public final class TableNotFoundException extends RuntimeException {
  private final String tableRoot;

  public TableNotFoundException(String tableRoot) {
    super("no Delta table at " + tableRoot + ": " + tableRoot + "/_delta_log holds no commit or checkpoint");
    this.tableRoot = tableRoot;
  }

  public String tableRoot() {
    return tableRoot;
  }
}
