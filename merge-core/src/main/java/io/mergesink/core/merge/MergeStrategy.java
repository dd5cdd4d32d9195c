package io.mergesink.core.merge;

import io.mergesink.core.changes.ChangeSet;

/**
 * How a {@link ChangeSet} lands in a keyed table (docs/design.md, "Merge strategies"). Append tables
 * have no strategy: their writer adds every row.
 */
public enum MergeStrategy {
  /** Mark replaced rows in deletion vectors, write new rows to new files. Default. */
  DELETION_VECTORS("deletion-vectors"),
  /** Rewrite every touched file without its replaced rows; for readers without DV support. */
  COPY_ON_WRITE("copy-on-write");

  private final String configName;

  MergeStrategy(String configName) {
    this.configName = configName;
  }

  /** The name users write in configuration. */
  public String configName() {
    return configName;
  }

  public static MergeStrategy fromConfigName(String name) {
    for (MergeStrategy strategy : values()) {
      if (strategy.configName.equalsIgnoreCase(name)) {
        return strategy;
      }
    }
    throw new IllegalArgumentException("unknown merge strategy '" + name + "', expected one of deletion-vectors, copy-on-write");
  }
}
