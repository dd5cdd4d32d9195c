package io.mergesink.core.deletionvectors;

import java.io.DataOutput;
import java.io.DataOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A {@link DataOutput} into a growable byte array, big-endian like {@link DataOutputStream}.
 * RoaringBitmap serializes an array container one {@code writeChar} per value; through a
 * {@code DataOutputStream} over a {@code ByteArrayOutputStream} each of them is two synchronized
 * single-byte writes, which made serializing a commit's deletion vectors a visible share of a
 * deletion-vector merge. Here each value is one bounds check and one store.
 */
final class ByteArrayDataOutput implements DataOutput {
  private static final VarHandle SHORT_VIEW = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT_VIEW = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG_VIEW = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  /** The largest array the JVM reliably allocates: the most this output holds. */
  static final int MAX_SIZE = Integer.MAX_VALUE - 8;

  private byte[] bytes;
  private int size;

  ByteArrayDataOutput(int initialCapacity) {
    bytes = new byte[initialCapacity];
  }

  /** Bytes written so far. */
  int size() {
    return size;
  }

  /** The backing array: bytes {@code [0, size())} are the output. */
  byte[] array() {
    return bytes;
  }

  /** Drops the bytes from {@code newSize} on, so that the next write goes there. */
  void truncate(int newSize) {
    if (newSize < 0 || newSize > size) {
      throw new IndexOutOfBoundsException("cannot truncate " + size + " bytes written to " + newSize);
    }
    size = newSize;
  }

  /** Overwrites the four bytes at {@code position} (already written) with {@code value}, big-endian. */
  void setInt(int position, int value) {
    if (position < 0 || position > size - Integer.BYTES) {
      throw new IndexOutOfBoundsException("int at " + position + " is not within the " + size + " bytes written");
    }
    INT_VIEW.set(bytes, position, value);
  }

  @Override
  public void write(int value) {
    reserve(Byte.BYTES);
    bytes[size++] = (byte) value;
  }

  @Override
  public void write(byte[] values) {
    write(values, 0, values.length);
  }

  @Override
  public void write(byte[] values, int offset, int length) {
    reserve(length);
    System.arraycopy(values, offset, bytes, size, length);
    size += length;
  }

  @Override
  public void writeBoolean(boolean value) {
    write(value ? 1 : 0);
  }

  @Override
  public void writeByte(int value) {
    write(value);
  }

  @Override
  public void writeShort(int value) {
    reserve(Short.BYTES);
    SHORT_VIEW.set(bytes, size, (short) value);
    size += Short.BYTES;
  }

  @Override
  public void writeChar(int value) {
    writeShort(value);
  }

  @Override
  public void writeInt(int value) {
    reserve(Integer.BYTES);
    INT_VIEW.set(bytes, size, value);
    size += Integer.BYTES;
  }

  @Override
  public void writeLong(long value) {
    reserve(Long.BYTES);
    LONG_VIEW.set(bytes, size, value);
    size += Long.BYTES;
  }

  @Override
  public void writeFloat(float value) {
    writeInt(Float.floatToIntBits(value));
  }

  @Override
  public void writeDouble(double value) {
    writeLong(Double.doubleToLongBits(value));
  }

  @Override
  public void writeBytes(String value) {
    for (int i = 0; i < value.length(); i++) {
      write(value.charAt(i));
    }
  }

  @Override
  public void writeChars(String value) {
    for (int i = 0; i < value.length(); i++) {
      writeChar(value.charAt(i));
    }
  }

  /** Not needed for bitmaps: modified UTF-8 is {@link DataOutputStream}'s business. */
  @Override
  public void writeUTF(String value) {
    throw new UnsupportedOperationException("writeUTF is not supported; RoaringBitmap does not use it");
  }

  private void reserve(int length) {
    if (length <= bytes.length - size) {
      return;
    }
    if (length > MAX_SIZE - size) {
      throw new IllegalArgumentException("an in-memory output holds at most " + MAX_SIZE + " bytes: " + size
          + " written, " + length + " more requested");
    }
    bytes = Arrays.copyOf(bytes, (int) Math.min(MAX_SIZE, Math.max(2L * bytes.length, (long) size + length)));
  }
}
