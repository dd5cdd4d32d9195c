package io.mergesink.ingest.options;

/** {@code delete.mode}: what a delete does to the row of a keyed table (docs/design.md, "Ordering and soft deletes"). */
public enum DeleteMode implements NamedOption {
  /** The row is removed. */
  HARD("hard"),
  /**
   * The row stays, marked {@code __deleted} = true with the delete's source time in
   * {@code __deleted_at}; a later upsert of the key makes it live again.
   */
  SOFT("soft");

  private final String configName;

  DeleteMode(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
