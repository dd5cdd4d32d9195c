package io.mergesink.core.index;

import java.util.Arrays;

/**
 * Append-only storage for encoded keys, addressed by a {@value #ADDRESS_BITS}-bit number: page
 * number above bit {@value #OFFSET_BITS}, byte offset in the page below it (an offset is below
 * {@value #MAX_PAGE_BYTES}; a page of its own for a longer key holds it at offset 0), so an address
 * leaves the upper bits of a {@code long} free for its owner. A record is the key's length as an
 * unsigned LEB128 varint followed by the key's bytes; records never straddle pages.
 *
 * <p>Pages start at {@value #FIRST_PAGE_BYTES} bytes and double up to {@value #MAX_PAGE_BYTES}
 * (a key longer than that gets a page of its own size), so a small index stays small and a large
 * one wastes at most the unused tail of each page. Released records stay in place as
 * garbage until the owner copies the live ones into a new arena ({@link #copyRecord}).
 */
final class KeyArena {
  static final int FIRST_PAGE_BYTES = 4 * 1024;
  /**
   * Well below half of G1's smallest region (1 MiB), so pages are never "humongous" objects,
   * which G1 rounds up to whole regions (a 1 MiB page took 2 MiB of heap).
   */
  static final int MAX_PAGE_BYTES = 128 * 1024;

  /** Bits of an address; at most 2^23 pages (a terabyte of keys). */
  static final int ADDRESS_BITS = 40;
  private static final int OFFSET_BITS = 17;
  private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
  private static final int MAX_PAGES = 1 << (ADDRESS_BITS - OFFSET_BITS);
  private static final int INITIAL_PAGE_SLOTS = 8;
  private static final int VARINT_PAYLOAD_BITS = 7;
  private static final int VARINT_PAYLOAD_MASK = 0x7F;
  private static final int VARINT_CONTINUATION = 0x80;
  private static final int ARRAY_HEADER_BYTES = 16;

  private byte[][] pages = new byte[INITIAL_PAGE_SLOTS][];
  private int pageCount;
  private int used;
  private long allocatedBytes;
  private long liveBytes;
  private long garbageBytes;

  /** Stores {@code key[0, length)} and returns its address. */
  long append(byte[] key, int length) {
    return append(key, 0, length);
  }

  private long append(byte[] key, int offset, int length) {
    int recordBytes = varintBytes(length) + length;
    if (pageCount == 0 || used + recordBytes > pages[pageCount - 1].length) {
      addPage(recordBytes);
    }
    byte[] page = pages[pageCount - 1];
    long address = ((long) (pageCount - 1) << OFFSET_BITS) | used;
    int position = used;
    int remaining = length;
    while ((remaining & ~VARINT_PAYLOAD_MASK) != 0) {
      page[position++] = (byte) ((remaining & VARINT_PAYLOAD_MASK) | VARINT_CONTINUATION);
      remaining >>>= VARINT_PAYLOAD_BITS;
    }
    page[position++] = (byte) remaining;
    System.arraycopy(key, offset, page, position, length);
    used = position + length;
    liveBytes += recordBytes;
    return address;
  }

  /** {@link BytesKeyTable#hash} of the key stored at {@code address}. */
  int hash(long address) {
    byte[] page = pages[(int) (address >>> OFFSET_BITS)];
    int position = (int) (address & OFFSET_MASK);
    int length = keyLength(page, position);
    return BytesKeyTable.hash(page, position + varintBytes(length), length);
  }

  /** Whether the record at {@code address} holds exactly {@code key[0, length)}. */
  boolean matches(long address, byte[] key, int length) {
    byte[] page = pages[(int) (address >>> OFFSET_BITS)];
    int position = (int) (address & OFFSET_MASK);
    int storedLength = keyLength(page, position);
    int keyStart = position + varintBytes(storedLength);
    return storedLength == length && Arrays.equals(page, keyStart, keyStart + length, key, 0, length);
  }

  /** Marks the record at {@code address} as garbage. */
  void release(long address) {
    int recordBytes = recordBytes(address);
    liveBytes -= recordBytes;
    garbageBytes += recordBytes;
  }

  /** Copies the record at {@code address} into {@code target}, returning its new address. */
  long copyRecord(long address, KeyArena target) {
    byte[] page = pages[(int) (address >>> OFFSET_BITS)];
    int position = (int) (address & OFFSET_MASK);
    int length = keyLength(page, position);
    return target.append(page, position + varintBytes(length), length);
  }

  long liveBytes() {
    return liveBytes;
  }

  long garbageBytes() {
    return garbageBytes;
  }

  long estimatedHeapBytes() {
    return allocatedBytes + (long) pages.length * Long.BYTES + (long) pageCount * ARRAY_HEADER_BYTES;
  }

  private int recordBytes(long address) {
    byte[] page = pages[(int) (address >>> OFFSET_BITS)];
    int length = keyLength(page, (int) (address & OFFSET_MASK));
    return varintBytes(length) + length;
  }

  private static int keyLength(byte[] page, int position) {
    int length = 0;
    int shift = 0;
    int b;
    do {
      b = page[position++];
      length |= (b & VARINT_PAYLOAD_MASK) << shift;
      shift += VARINT_PAYLOAD_BITS;
    } while ((b & VARINT_CONTINUATION) != 0);
    return length;
  }

  private static int varintBytes(int value) {
    int bytes = 1;
    for (int remaining = value >>> VARINT_PAYLOAD_BITS; remaining != 0; remaining >>>= VARINT_PAYLOAD_BITS) {
      bytes++;
    }
    return bytes;
  }

  private void addPage(int recordBytes) {
    int nextSize = pageCount == 0 ? FIRST_PAGE_BYTES
        : Math.min(MAX_PAGE_BYTES, pages[pageCount - 1].length * 2);
    if (pageCount == MAX_PAGES) {
      throw new IllegalStateException("key arena is full: " + MAX_PAGES + " pages, " + allocatedBytes + " bytes of keys");
    }
    if (pageCount == pages.length) {
      pages = Arrays.copyOf(pages, Math.min(MAX_PAGES, pages.length * 2));
    }
    byte[] page = new byte[Math.max(nextSize, recordBytes)];
    pages[pageCount++] = page;
    allocatedBytes += page.length;
    used = 0;
  }
}
