package io.mergesink.core.types;

/** The Delta types without parameters, named as in Delta's schema JSON. */
public enum PrimitiveType implements DataType {
  BOOLEAN("boolean"),
  BYTE("byte"),
  SHORT("short"),
  INTEGER("integer"),
  LONG("long"),
  FLOAT("float"),
  DOUBLE("double"),
  STRING("string"),
  BINARY("binary"),
  DATE("date"),
  TIMESTAMP("timestamp"),
  TIMESTAMP_NTZ("timestamp_ntz");

  private final String deltaName;

  PrimitiveType(String deltaName) {
    this.deltaName = deltaName;
  }

  /** The name of this type in Delta's schema JSON. */
  public String deltaName() {
    return deltaName;
  }

  /** The type with the given Delta schema name, or null when the name is not a primitive type. */
  public static PrimitiveType fromDeltaName(String name) {
    for (PrimitiveType type : values()) {
      if (type.deltaName.equals(name)) {
        return type;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return deltaName;
  }
}
