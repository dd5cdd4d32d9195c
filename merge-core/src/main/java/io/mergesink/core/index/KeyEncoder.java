package io.mergesink.core.index;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Encodes key rows of one key schema into a canonical byte form: two keys encode to equal bytes
 * if and only if they are equal keys.
 *
 * <p>The key's columns are written one after the other. The schema is fixed per encoder, so the
 * type of each position is known and no type tag is written (a tag would be the same constant in
 * every key of an index); variable-length values carry a length prefix, so no value can run into
 * the next. Per type (fixed-width integers big-endian):
 *
 * <ul>
 *   <li>boolean: 1 byte, 0 or 1. byte: 1 byte. short: 2 bytes. integer, date: 4 bytes. long,
 *       timestamp, timestamp_ntz: 8 bytes.
 *   <li>float: the 4 bytes of {@link Float#floatToIntBits}; double: the 8 bytes of
 *       {@link Double#doubleToLongBits} (one NaN, and -0.0 ≠ 0.0, as {@link Row#equals} has it).
 *   <li>string: unsigned LEB128 varint byte count, then the string as WTF-8 (UTF-8, except that
 *       an unpaired surrogate is encoded as its own 3-byte sequence instead of being replaced, so
 *       distinct strings never encode equal).
 *   <li>binary: varint byte count, then the bytes.
 *   <li>decimal: the value rescaled to the type's scale without rounding; then for precision ≤
 *       {@value #MAX_LONG_DECIMAL_PRECISION} the unscaled value as 8 bytes, else varint byte
 *       count and the unscaled value's minimal two's-complement bytes
 *       ({@link BigInteger#toByteArray}).
 * </ul>
 *
 * <p>Encoding reuses one internal buffer (no allocation per key once it has grown): the bytes of
 * the last {@link #encode} are valid until the next call. Not thread-safe.
 */
final class KeyEncoder {
  /** Decimals up to this precision have unscaled values that fit a long. */
  static final int MAX_LONG_DECIMAL_PRECISION = 18;

  private static final int INITIAL_BUFFER_BYTES = 64;
  private static final int VARINT_PAYLOAD_BITS = 7;
  private static final int VARINT_PAYLOAD_MASK = 0x7F;
  private static final int VARINT_CONTINUATION = 0x80;

  private final StructType keySchema;
  private final DataType[] types;
  private byte[] buffer = new byte[INITIAL_BUFFER_BYTES];
  private int length;

  KeyEncoder(StructType keySchema) {
    TypedKeys.checkSchema(keySchema);
    this.keySchema = keySchema;
    this.types = new DataType[keySchema.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = keySchema.field(i).type();
    }
  }

  /**
   * Encodes {@code key} into {@link #buffer()}, returning the encoded length.
   *
   * @throws IllegalArgumentException when the key has the wrong number of values, a null value, a
   *     value of the wrong Java class, or a decimal that does not fit its type's scale
   */
  int encode(Row key) {
    TypedKeys.checkArity(keySchema, key);
    length = 0;
    for (int i = 0; i < types.length; i++) {
      Object value = TypedKeys.value(keySchema, key, i);
      if (types[i] instanceof DecimalType decimal) {
        writeDecimal(decimal, TypedKeys.as(BigDecimal.class, keySchema, i, value), i);
      } else {
        writePrimitive((PrimitiveType) types[i], value, i);
      }
    }
    return length;
  }

  /** The bytes of the last {@link #encode}, in {@code [0, length)}. */
  byte[] buffer() {
    return buffer;
  }

  private void writePrimitive(PrimitiveType type, Object value, int ordinal) {
    switch (type) {
      case BOOLEAN -> writeByte(TypedKeys.as(Boolean.class, keySchema, ordinal, value) ? 1 : 0);
      case BYTE -> writeByte(TypedKeys.as(Byte.class, keySchema, ordinal, value));
      case SHORT -> writeFixed(TypedKeys.as(Short.class, keySchema, ordinal, value), Short.BYTES);
      case INTEGER, DATE -> writeFixed(TypedKeys.as(Integer.class, keySchema, ordinal, value), Integer.BYTES);
      case LONG, TIMESTAMP, TIMESTAMP_NTZ ->
          writeFixed(TypedKeys.as(Long.class, keySchema, ordinal, value), Long.BYTES);
      case FLOAT -> writeFixed(
          Float.floatToIntBits(TypedKeys.as(Float.class, keySchema, ordinal, value)), Float.BYTES);
      case DOUBLE -> writeFixed(
          Double.doubleToLongBits(TypedKeys.as(Double.class, keySchema, ordinal, value)), Double.BYTES);
      case STRING -> writeString(TypedKeys.as(String.class, keySchema, ordinal, value));
      case BINARY -> writeBytes(TypedKeys.as(byte[].class, keySchema, ordinal, value));
    }
  }

  private void writeDecimal(DecimalType type, BigDecimal value, int ordinal) {
    BigInteger unscaled;
    try {
      unscaled = value.setScale(type.scale()).unscaledValue();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("key column '" + keySchema.field(ordinal).name() + "' (position "
          + ordinal + ", type " + type + ") holds " + value + ", which does not fit scale " + type.scale()
          + " without rounding", e);
    }
    if (type.precision() <= MAX_LONG_DECIMAL_PRECISION && unscaled.bitLength() < Long.SIZE) {
      writeFixed(unscaled.longValue(), Long.BYTES);
    } else if (type.precision() <= MAX_LONG_DECIMAL_PRECISION) {
      throw new IllegalArgumentException("key column '" + keySchema.field(ordinal).name() + "' (position "
          + ordinal + ", type " + type + ") holds " + value + ", which exceeds the type's precision");
    } else {
      writeBytes(unscaled.toByteArray());
    }
  }

  private void writeBytes(byte[] bytes) {
    writeVarint(bytes.length);
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buffer, length, bytes.length);
    length += bytes.length;
  }

  /** WTF-8: like UTF-8, but an unpaired surrogate becomes its own 3-byte sequence. */
  private void writeString(String value) {
    int utf8Length = wtf8Length(value);
    writeVarint(utf8Length);
    ensure(utf8Length);
    int n = value.length();
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        buffer[length++] = (byte) c;
      } else if (c < 0x800) {
        buffer[length++] = (byte) (0xC0 | (c >> 6));
        buffer[length++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
        int codePoint = Character.toCodePoint(c, value.charAt(++i));
        buffer[length++] = (byte) (0xF0 | (codePoint >> 18));
        buffer[length++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
        buffer[length++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
        buffer[length++] = (byte) (0x80 | (codePoint & 0x3F));
      } else {
        buffer[length++] = (byte) (0xE0 | (c >> 12));
        buffer[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        buffer[length++] = (byte) (0x80 | (c & 0x3F));
      }
    }
  }

  private static int wtf8Length(String value) {
    int n = value.length();
    int bytes = 0;
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  private void writeVarint(int value) {
    ensure(Integer.BYTES + 1);
    int remaining = value;
    while ((remaining & ~VARINT_PAYLOAD_MASK) != 0) {
      buffer[length++] = (byte) ((remaining & VARINT_PAYLOAD_MASK) | VARINT_CONTINUATION);
      remaining >>>= VARINT_PAYLOAD_BITS;
    }
    buffer[length++] = (byte) remaining;
  }

  private void writeByte(int value) {
    ensure(1);
    buffer[length++] = (byte) value;
  }

  /** The low {@code bytes} bytes of {@code value}, big-endian. */
  private void writeFixed(long value, int bytes) {
    ensure(bytes);
    for (int shift = (bytes - 1) * Byte.SIZE; shift >= 0; shift -= Byte.SIZE) {
      buffer[length++] = (byte) (value >>> shift);
    }
  }

  private void ensure(int extra) {
    if (length + extra > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + extra));
    }
  }
}
