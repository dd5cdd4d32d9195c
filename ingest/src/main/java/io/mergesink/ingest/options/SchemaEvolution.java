package io.mergesink.ingest.options;

/** {@code schema.evolution}: what happens when a record carries columns the table lacks. */
public enum SchemaEvolution implements NamedOption {
  /** The table schema never changes; a record with unknown columns is an error. */
  NONE("none"),
  /** Unknown columns are added to the table as nullable columns; nothing is ever dropped or retyped. */
  ADD_COLUMNS("add-columns");

  private final String configName;

  SchemaEvolution(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
