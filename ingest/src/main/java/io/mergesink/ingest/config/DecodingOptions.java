package io.mergesink.ingest.config;

import io.mergesink.ingest.decode.LogicalTypes;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;

/** How change events are read beyond their envelope. */
public final class DecodingOptions {
  public static final String GROUP = "Decoding";
  public static final String UNAVAILABLE_VALUE_PLACEHOLDER = "unavailable.value.placeholder";
  public static final String UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT = LogicalTypes.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER;

  private DecodingOptions() {}

  static void define(ConfigDef def) {
    ConfigGroup decoding = new ConfigGroup(def, GROUP);
    decoding.option(UNAVAILABLE_VALUE_PLACEHOLDER, Type.STRING)
        .defaultValue(UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT)
        .validator(new ConfigDef.NonEmptyString()).importance(Importance.LOW)
        .displayName("Unavailable value placeholder")
        .doc("The source connector's unavailable.value.placeholder: a column holding it (as text, its UTF-8 bytes, or "
            + "a one-element array) was not sent (an unchanged PostgreSQL TOAST value) and keeps its current value.")
        .define();
  }
}
