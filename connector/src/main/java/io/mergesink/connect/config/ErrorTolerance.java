package io.mergesink.connect.config;

import io.mergesink.ingest.options.NamedOption;

/**
 * Connect's own {@code errors.tolerance} (not defined by this connector, read from the connector
 * configuration): {@code none} fails the task on the first bad record, {@code all} reports it to
 * the dead letter queue through the {@code ErrantRecordReporter} (or only logs it when no queue
 * is configured) and goes on.
 */
public enum ErrorTolerance implements NamedOption {
  NONE("none"),
  ALL("all");

  private final String configName;

  ErrorTolerance(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
