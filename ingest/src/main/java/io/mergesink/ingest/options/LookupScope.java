package io.mergesink.ingest.options;

/** {@code lookup.scope}: which files a task's key index covers (docs/design.md, "File ownership"). */
public enum LookupScope implements NamedOption {
  /** Only files written for the task's own topic-partitions. */
  PARTITION("partition"),
  /** Every file of the table, for topics whose keys may move between partitions. */
  TABLE("table");

  private final String configName;

  LookupScope(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
