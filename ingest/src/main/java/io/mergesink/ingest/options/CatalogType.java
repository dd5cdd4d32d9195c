package io.mergesink.ingest.options;

/** {@code catalog.type}: where Delta tables are registered by name after commits. */
public enum CatalogType implements NamedOption {
  /** Nowhere: engines open the tables by path. */
  NONE("none"),
  /** A Hive Metastore (or one that speaks its Thrift API), as Spark's Delta catalog registers a table there. */
  HIVE("hive");

  private final String configName;

  CatalogType(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
