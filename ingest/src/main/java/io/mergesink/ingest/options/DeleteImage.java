package io.mergesink.ingest.options;

/** {@code append.delete.image}: which columns the row of a delete holds in an append table. */
public enum DeleteImage implements NamedOption {
  /** The row before the delete when the event carries one (Debezium's {@code before}), else the key. */
  BEFORE("before"),
  /** The key columns only; the other columns are null. */
  KEY("key");

  private final String configName;

  DeleteImage(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
