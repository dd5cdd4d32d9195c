package io.mergesink.core.types;

/** decimal(precision, scale), precision 1..38 as in Delta. */
public record DecimalType(int precision, int scale) implements DataType {
  public static final int MAX_PRECISION = 38;

  public DecimalType {
    if (precision < 1 || precision > MAX_PRECISION || scale < 0 || scale > precision) {
      throw new IllegalArgumentException(
          "decimal(" + precision + "," + scale + ") is not a valid Delta decimal: precision must be 1.."
              + MAX_PRECISION + " and scale 0..precision");
    }
  }

  @Override
  public String toString() {
    return "decimal(" + precision + "," + scale + ")";
  }
}
