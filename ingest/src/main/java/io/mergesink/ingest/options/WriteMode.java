package io.mergesink.ingest.options;

/** {@code write.mode}: how change events land in a table. */
public enum WriteMode implements NamedOption {
  /** Keyed: the last change per primary key wins; deletes remove the row. */
  UPSERT("upsert"),
  /** Every change event becomes a new row with its operation and position; nothing is replaced. */
  APPEND("append"),
  /**
   * Keyed history (SCD type 2): every version of a key is a row with {@code __valid_from},
   * {@code __valid_to} and {@code __current}; a change closes the key's current row and adds the
   * new version, a delete closes it.
   */
  HISTORY("history");

  private final String configName;

  WriteMode(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
