package io.mergesink.core.types;

import java.util.Map;
import java.util.Objects;

/**
 * A named column. {@code metadata} is the field's Delta metadata object, kept as parsed JSON values
 * (String, Number, Boolean, List, Map) so that fields of tables written by other tools round-trip.
 */
public record StructField(String name, DataType type, boolean nullable, Map<String, Object> metadata) {
  public StructField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }

  public StructField(String name, DataType type, boolean nullable) {
    this(name, type, nullable, Map.of());
  }
}
