package io.mergesink.core.types;

import java.util.Objects;

public record MapType(DataType keyType, DataType valueType, boolean valueContainsNull) implements DataType {
  public MapType {
    Objects.requireNonNull(keyType, "keyType");
    Objects.requireNonNull(valueType, "valueType");
  }

  @Override
  public String toString() {
    return "map<" + keyType + "," + valueType + ">";
  }
}
