package io.mergesink.core.types;

import java.util.Objects;

public record ArrayType(DataType elementType, boolean containsNull) implements DataType {
  public ArrayType {
    Objects.requireNonNull(elementType, "elementType");
  }

  @Override
  public String toString() {
    return "array<" + elementType + ">";
  }
}
