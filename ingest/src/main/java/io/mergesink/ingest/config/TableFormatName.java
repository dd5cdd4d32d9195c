package io.mergesink.ingest.config;

import io.mergesink.ingest.options.NamedOption;

/** {@code table.format}: the table format the engine writes its tables in. */
public enum TableFormatName implements NamedOption {
  DELTA("delta"),
  ICEBERG("iceberg"),
  PAIMON("paimon");

  private final String configName;

  TableFormatName(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
