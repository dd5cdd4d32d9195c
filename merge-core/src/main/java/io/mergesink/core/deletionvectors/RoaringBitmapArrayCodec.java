package io.mergesink.core.deletionvectors;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Delta's "RoaringBitmapArray" serialization of a set of row indexes (PROTOCOL.md, appendix
 * <a href="https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vector-format">"Deletion Vector Format"</a>), the bytes that a DV file stores between its size and checksum fields
 * and that an inline DV Z85-encodes.
 *
 * <p>Layout, every number little-endian:
 * <pre>
 *   bytes 0..3   magic number {@value #MAGIC_NUMBER} (int32, little-endian)
 *   bytes 4..    64-bit RoaringBitmap in the portable format of the RoaringFormatSpec:
 *                  uint64 number of 32-bit buckets (little-endian),
 *                  per bucket in ascending key order: uint32 high key (little-endian) and a
 *                  serialized 32-bit RoaringBitmap of the low 32 bits
 * </pre>
 *
 * <p>{@link Roaring64NavigableMap#serializePortable} writes exactly that portable format, so it is
 * called explicitly here; RoaringBitmap's global {@code SERIALIZATION_MODE} is never read or set.
 * Bitmaps are not run-optimized: Spark never does, and run containers, while valid, would give
 * other bytes than Spark for the same rows.
 *
 * <p>Delta requires the most significant bit of every high key to be 0, so only row indexes in
 * {@code [0, 2^63)} are accepted.
 */
public final class RoaringBitmapArrayCodec {
  /** Magic number at byte 0 of the serialized bitmap, stored as a little-endian int32. */
  public static final int MAGIC_NUMBER = 1681511377;
  /**
   * Magic number of the older "native" RoaringBitmapArray layout (int32 bitmap count, implicit
   * high keys), which Delta Kernel can read but Delta writers do not produce for DVs; recognized
   * only to say so in the error.
   */
  private static final int NATIVE_FORMAT_MAGIC_NUMBER = 1681511376;
  /** Width of the magic number field in bytes. */
  public static final int MAGIC_NUMBER_BYTES = Integer.BYTES;
  /** Room for the magic number, the bucket count and a small bitmap; the output grows from there. */
  private static final int INITIAL_BUFFER_BYTES = 64;

  private RoaringBitmapArrayCodec() {}

  /**
   * The magic number followed by the portable serialization of {@code bitmap}. The bitmap is not
   * modified (in particular not run-optimized).
   *
   * @throws IllegalArgumentException when the bitmap holds a negative row index
   */
  public static byte[] serialize(Roaring64NavigableMap bitmap) {
    ByteArrayDataOutput out = new ByteArrayDataOutput(INITIAL_BUFFER_BYTES);
    serialize(bitmap, out);
    return Arrays.copyOf(out.array(), out.size());
  }

  /** {@link #serialize(Roaring64NavigableMap)} appended to {@code out}. */
  static void serialize(Roaring64NavigableMap bitmap, ByteArrayDataOutput out) {
    requireNonNegative(bitmap);
    out.writeInt(Integer.reverseBytes(MAGIC_NUMBER));
    try {
      bitmap.serializePortable(out);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
  }

  /**
   * Reads a bitmap written by {@link #serialize} (or by Spark, Kernel or any other Delta writer).
   *
   * @throws IllegalArgumentException when the magic number is wrong, the bytes end early or carry
   *     bytes after the bitmap, or a row index is negative
   */
  public static Roaring64NavigableMap deserialize(byte[] bytes) {
    if (bytes.length < MAGIC_NUMBER_BYTES) {
      throw new IllegalArgumentException("a RoaringBitmapArray starts with a " + MAGIC_NUMBER_BYTES
          + "-byte magic number, found only " + bytes.length + " bytes");
    }
    int magic = ByteBuffer.wrap(bytes, 0, MAGIC_NUMBER_BYTES).order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (magic != MAGIC_NUMBER) {
      String hint = magic == NATIVE_FORMAT_MAGIC_NUMBER
          ? " (the magic number of the older \"native\" RoaringBitmapArray format, which Delta writers do not use for deletion vectors)"
          : "";
      throw new IllegalArgumentException("expected RoaringBitmapArray magic number " + MAGIC_NUMBER
          + " (little-endian), found " + magic + hint);
    }
    ByteArrayInputStream remaining = new ByteArrayInputStream(bytes, MAGIC_NUMBER_BYTES, bytes.length - MAGIC_NUMBER_BYTES);
    Roaring64NavigableMap bitmap = new Roaring64NavigableMap();
    try {
      bitmap.deserializePortable(new DataInputStream(remaining));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("corrupt RoaringBitmapArray of " + bytes.length + " bytes: " + e, e);
    }
    if (remaining.available() != 0) {
      throw new IllegalArgumentException("RoaringBitmapArray of " + bytes.length + " bytes ends after "
          + (bytes.length - remaining.available()) + " bytes, found " + remaining.available() + " trailing bytes");
    }
    requireNonNegative(bitmap);
    return bitmap;
  }

  private static void requireNonNegative(Roaring64NavigableMap bitmap) {
    if (bitmap.isEmpty()) {
      return;
    }
    long first = bitmap.first();
    long last = bitmap.last();
    if (first < 0 || last < 0) {
      throw new IllegalArgumentException("deletion vectors hold row indexes in [0, 2^63), found "
          + (first < 0 ? first : last));
    }
  }
}
