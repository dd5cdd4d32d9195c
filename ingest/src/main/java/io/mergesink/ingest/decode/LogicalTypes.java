package io.mergesink.ingest.decode;

/**
 * Names of the Connect and Debezium logical types the decoder maps specially ({@code Schema.name()}).
 * Kept as string constants so that the plugin does not depend on Debezium at run time.
 */
public final class LogicalTypes {
  // Kafka Connect
  public static final String CONNECT_DECIMAL = "org.apache.kafka.connect.data.Decimal";
  public static final String CONNECT_DATE = "org.apache.kafka.connect.data.Date";
  public static final String CONNECT_TIME = "org.apache.kafka.connect.data.Time";
  public static final String CONNECT_TIMESTAMP = "org.apache.kafka.connect.data.Timestamp";
  /** Parameter of a Connect Decimal holding its scale. */
  public static final String DECIMAL_SCALE_PARAMETER = "scale";
  /** Parameter of a Connect Decimal holding its precision (set by Debezium and the Avro converter). */
  public static final String DECIMAL_PRECISION_PARAMETER = "connect.decimal.precision";

  // Debezium time types
  public static final String DEBEZIUM_DATE = "io.debezium.time.Date";
  public static final String DEBEZIUM_TIME = "io.debezium.time.Time";
  public static final String DEBEZIUM_MICRO_TIME = "io.debezium.time.MicroTime";
  public static final String DEBEZIUM_NANO_TIME = "io.debezium.time.NanoTime";
  public static final String DEBEZIUM_ZONED_TIME = "io.debezium.time.ZonedTime";
  public static final String DEBEZIUM_TIMESTAMP = "io.debezium.time.Timestamp";
  public static final String DEBEZIUM_MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";
  public static final String DEBEZIUM_NANO_TIMESTAMP = "io.debezium.time.NanoTimestamp";
  public static final String DEBEZIUM_ZONED_TIMESTAMP = "io.debezium.time.ZonedTimestamp";

  // Debezium data types
  public static final String DEBEZIUM_VARIABLE_SCALE_DECIMAL = "io.debezium.data.VariableScaleDecimal";
  public static final String DEBEZIUM_JSON = "io.debezium.data.Json";
  public static final String DEBEZIUM_UUID = "io.debezium.data.Uuid";
  /** Field of a VariableScaleDecimal struct holding the scale. */
  public static final String VARIABLE_SCALE_DECIMAL_SCALE = "scale";
  /** Field of a VariableScaleDecimal struct holding the big-endian two's-complement unscaled value. */
  public static final String VARIABLE_SCALE_DECIMAL_VALUE = "value";

  /** Debezium's default {@code unavailable.value.placeholder} for unchanged PostgreSQL TOAST values. */
  public static final String DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER = "__debezium_unavailable_value";

  private LogicalTypes() {}
}
