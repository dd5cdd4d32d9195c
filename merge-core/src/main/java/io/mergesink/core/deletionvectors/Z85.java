package io.mergesink.core.deletionvectors;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.UUID;

/**
 * The Z85 variant of Base85 (<a href="https://rfc.zeromq.org/spec/32/">ZeroMQ RFC 32</a>) that
 * Delta uses for deletion vector UUIDs and inline bitmaps (PROTOCOL.md, "Deletion Vector
 * Descriptor Schema", <a href="https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vector-descriptor-schema">link</a>: "The concrete Base85
 * variant used is Z85, because it is JSON-friendly").
 *
 * <p>Every 4 bytes, read as a big-endian unsigned 32-bit number, become 5 characters, most
 * significant digit first. Z85 has no padding: {@link #encode} takes whole 4-byte blocks only;
 * callers that store other lengths pad with zeros and record the real length elsewhere (as
 * {@link DeletionVectorStore#inline} does with {@code sizeInBytes}).
 */
public final class Z85 {
  /** Bytes per block of binary input. */
  public static final int BYTES_PER_BLOCK = 4;
  /** Characters per block of encoded output. */
  public static final int CHARS_PER_BLOCK = 5;
  /** Length of an encoded UUID: 16 bytes = 4 blocks = 20 characters. */
  public static final int ENCODED_UUID_LENGTH = 20;

  private static final int BASE = 85;
  private static final long MAX_BLOCK_VALUE = 0xFFFF_FFFFL;
  private static final int UUID_BYTES = 16;
  private static final String ALPHABET =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  private static final int NOT_A_DIGIT = -1;
  private static final int[] DIGIT_OF = digitTable();

  private Z85() {}

  /**
   * Encodes {@code data}, whose length must be a multiple of {@value #BYTES_PER_BLOCK}.
   *
   * @throws IllegalArgumentException when the length is not a multiple of 4
   */
  public static String encode(byte[] data) {
    if (data.length % BYTES_PER_BLOCK != 0) {
      throw new IllegalArgumentException("Z85 encodes whole blocks of " + BYTES_PER_BLOCK
          + " bytes: expected a length that is a multiple of " + BYTES_PER_BLOCK + ", found " + data.length);
    }
    ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.BIG_ENDIAN);
    char[] out = new char[data.length / BYTES_PER_BLOCK * CHARS_PER_BLOCK];
    for (int block = 0; in.hasRemaining(); block++) {
      long value = Integer.toUnsignedLong(in.getInt());
      for (int digit = CHARS_PER_BLOCK - 1; digit >= 0; digit--) {
        out[block * CHARS_PER_BLOCK + digit] = ALPHABET.charAt((int) (value % BASE));
        value /= BASE;
      }
    }
    return new String(out);
  }

  /**
   * Decodes Z85 text into {@code text.length() / 5 * 4} bytes.
   *
   * @throws IllegalArgumentException when the length is not a multiple of 5, a character is not in
   *     the Z85 alphabet, or a block encodes a value above 2^32 - 1
   */
  public static byte[] decode(String text) {
    if (text.length() % CHARS_PER_BLOCK != 0) {
      throw new IllegalArgumentException("Z85 text must consist of whole blocks of " + CHARS_PER_BLOCK
          + " characters: expected a length that is a multiple of " + CHARS_PER_BLOCK + ", found "
          + text.length() + " in '" + text + "'");
    }
    ByteBuffer out = ByteBuffer.allocate(text.length() / CHARS_PER_BLOCK * BYTES_PER_BLOCK).order(ByteOrder.BIG_ENDIAN);
    for (int start = 0; start < text.length(); start += CHARS_PER_BLOCK) {
      long value = 0;
      for (int i = start; i < start + CHARS_PER_BLOCK; i++) {
        value = value * BASE + digit(text, i);
      }
      if (value > MAX_BLOCK_VALUE) {
        throw new IllegalArgumentException("Z85 block '" + text.substring(start, start + CHARS_PER_BLOCK)
            + "' at position " + start + " of '" + text + "' encodes " + value
            + ", more than the largest 4-byte value " + MAX_BLOCK_VALUE);
      }
      out.putInt((int) value);
    }
    return out.array();
  }

  /** The {@value #ENCODED_UUID_LENGTH}-character Z85 form of the UUID's 16 bytes, most significant first. */
  public static String encodeUuid(UUID uuid) {
    ByteBuffer bytes = ByteBuffer.allocate(UUID_BYTES).order(ByteOrder.BIG_ENDIAN);
    bytes.putLong(uuid.getMostSignificantBits());
    bytes.putLong(uuid.getLeastSignificantBits());
    return encode(bytes.array());
  }

  /**
   * The UUID encoded by {@link #encodeUuid}.
   *
   * @throws IllegalArgumentException when {@code text} is not {@value #ENCODED_UUID_LENGTH} Z85 characters
   */
  public static UUID decodeUuid(String text) {
    if (text.length() != ENCODED_UUID_LENGTH) {
      throw new IllegalArgumentException("a Z85-encoded UUID has " + ENCODED_UUID_LENGTH
          + " characters, found " + text.length() + " in '" + text + "'");
    }
    ByteBuffer bytes = ByteBuffer.wrap(decode(text)).order(ByteOrder.BIG_ENDIAN);
    return new UUID(bytes.getLong(), bytes.getLong());
  }

  private static int digit(String text, int index) {
    char c = text.charAt(index);
    int digit = c < DIGIT_OF.length ? DIGIT_OF[c] : NOT_A_DIGIT;
    if (digit == NOT_A_DIGIT) {
      throw new IllegalArgumentException("character '" + c + "' at position " + index + " of '" + text
          + "' is not in the Z85 alphabet");
    }
    return digit;
  }

  private static int[] digitTable() {
    int[] table = new int[128];
    Arrays.fill(table, NOT_A_DIGIT);
    for (int i = 0; i < ALPHABET.length(); i++) {
      table[ALPHABET.charAt(i)] = i;
    }
    return table;
  }
}
