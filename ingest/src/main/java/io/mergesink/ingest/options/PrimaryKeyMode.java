package io.mergesink.ingest.options;

/** {@code primary.key.mode}: where the primary key of a change comes from. */
public enum PrimaryKeyMode implements NamedOption {
  /** The fields of the Kafka record key (Debezium puts the table's primary key there). */
  RECORD_KEY("record_key"),
  /** The {@code primary.key.fields} of the record value. */
  RECORD_VALUE("record_value");

  private final String configName;

  PrimaryKeyMode(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
