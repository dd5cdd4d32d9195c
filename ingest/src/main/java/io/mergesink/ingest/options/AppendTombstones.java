package io.mergesink.ingest.options;

/**
 * {@code append.tombstones}: what an append table records for a Kafka tombstone (docs/design.md,
 * "Append tables").
 */
public enum AppendTombstones implements NamedOption {
  /**
   * Nothing when the record before it in its partition is the delete of its key (Debezium's
   * {@code tombstones.on.delete}: that delete is the change's row); a delete row otherwise (a
   * source that deletes by tombstone only).
   */
  SKIP_AFTER_DELETE("skip-after-delete"),
  /** A delete row for every tombstone, so a Debezium delete lands as two rows. */
  RECORD("record");

  private final String configName;

  AppendTombstones(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
