package io.mergesink.ingest.options;

/**
 * {@code transaction.boundaries}: whether a table's commits hold whole source transactions
 * (docs/transactions.md).
 */
public enum TransactionBoundaries implements NamedOption {
  /**
   * Whole transactions when the task can read the transaction topic ({@code transaction.kafka.bootstrap.servers}
   * is set) and the changes carry Debezium's transaction metadata; changes as they come otherwise.
   */
  AUTO("auto"),
  /**
   * Whole transactions for changes that carry transaction metadata, with the transaction topic's
   * {@code END} events when the task can read it, else a transaction is complete when a later one begins.
   */
  ON("on"),
  /** Changes are committed as they come, whatever transactions they belong to. */
  OFF("off");

  private final String configName;

  TransactionBoundaries(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
