package io.mergesink.ingest.options;

/** {@code write.mode}: how change events land in a table. */
public enum WriteMode implements NamedOption {
  /** Keyed: the last change per primary key wins; deletes remove the row. */
  UPSERT("upsert"),
  /** Every change event becomes a new row with its operation and position; nothing is replaced. */
  APPEND("append");

  private final String configName;

  WriteMode(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
