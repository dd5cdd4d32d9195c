package io.mergesink.core.parquet;

import java.math.BigInteger;

/** Unscaled decimal values as Parquet's big-endian two's complement byte arrays. */
final class Decimals {
  private static final byte SIGN_EXTENSION_NEGATIVE = (byte) 0xFF;

  private Decimals() {}

  /**
   * {@code unscaled} as exactly {@code length} bytes, big-endian two's complement, sign-extended
   * (the FIXED_LEN_BYTE_ARRAY layout of the Parquet DECIMAL annotation).
   */
  static byte[] toFixedBytes(BigInteger unscaled, int length) {
    byte[] minimal = unscaled.toByteArray();
    if (minimal.length > length) {
      throw new IllegalArgumentException("unscaled decimal " + unscaled + " needs " + minimal.length
          + " bytes, more than the column's " + length);
    }
    if (minimal.length == length) {
      return minimal;
    }
    byte[] fixed = new byte[length];
    int padding = length - minimal.length;
    if (unscaled.signum() < 0) {
      java.util.Arrays.fill(fixed, 0, padding, SIGN_EXTENSION_NEGATIVE);
    }
    System.arraycopy(minimal, 0, fixed, padding, minimal.length);
    return fixed;
  }
}
