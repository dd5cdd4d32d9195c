package io.mergesink.ingest.options;

/** {@code schema.evolution}: what happens when a record carries columns the table lacks, or wider types. */
public enum SchemaEvolution implements NamedOption {
  /** The table schema never changes; a record with unknown columns is an error. */
  NONE("none"),
  /** Unknown columns are added to the table as nullable columns; nothing is ever dropped or retyped. */
  ADD_COLUMNS("add-columns"),
  /** As {@link #ADD_COLUMNS}, and columns whose type grows are widened (Delta type widening). */
  WIDEN_TYPES("widen-types");

  private final String configName;

  SchemaEvolution(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
