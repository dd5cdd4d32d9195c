package io.mergesink.core.index;

import it.unimi.dsi.fastutil.HashCommon;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Keys in their canonical byte form ({@link KeyEncoder}): an open-addressing table (linear
 * probing, power-of-two capacity, load ≤ {@value #MAX_LOAD}) of two parallel arrays — a word
 * holding the key's {@link KeyArena} address and the low {@value #TAG_BITS} bits of its 32-bit hash,
 * and its slot value ({@link Duplicates}) — with the key bytes themselves in the arena. 16 bytes per
 * slot plus the key's bytes and a 1-byte length in the arena (the hash shares the address's word:
 * a separate hash array cost 4 more bytes per slot, about 7 per key, which mattered for wide keys).
 * A lookup compares the hash bits first and then the full bytes, so equal hashes never make unequal
 * keys match. Up to 2^{@value #TAG_BITS} slots the stored bits are also a key's home slot; a larger
 * table rehashes the key's bytes in the arena when it moves keys (growing, removing).
 *
 * <p>Removal shifts the following cluster back (no tombstones); the table halves when a quarter
 * full. Removed keys' bytes stay in the arena until garbage outweighs live bytes, then the live
 * keys are copied into a fresh arena.
 */
final class BytesKeyTable {
  static final float MAX_LOAD = 0.75f;

  private static final int MIN_CAPACITY = 16;
  private static final int MAX_CAPACITY = 1 << 30;
  private static final long EMPTY = -1L;
  static final int TAG_BITS = Long.SIZE - KeyArena.ADDRESS_BITS;
  /** Garbage below this many bytes is never compacted (not worth a copy). */
  private static final long MIN_COMPACTION_GARBAGE_BYTES = 1024 * 1024;
  private static final int OBJECT_OVERHEAD_BYTES = 96;
  private static final long HASH_SEED = 0x9E37_79B9_7F4A_7C15L;
  private static final long HASH_MULTIPLIER = 0xC2B2_AE3D_27D4_EB4FL;
  private static final int HASH_ROTATION = 31;
  /** Reads 8 key bytes at a time; the byte order only has to be fixed, little-endian is native. */
  private static final VarHandle LONG_VIEW =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final Duplicates duplicates;
  /** The hash bits a word keeps: the low {@link #TAG_BITS} (fewer only in tests, to reach tables larger than them). */
  private final long tagMask;
  private KeyArena arena = new KeyArena();
  /** Per slot: the key's arena address above {@link #TAG_BITS}, the low bits of its hash below; {@link #EMPTY} for none. */
  private long[] words;
  private long[] values;
  private int mask;
  private int maxFill;
  private int size;

  BytesKeyTable(Duplicates duplicates) {
    this(duplicates, TAG_BITS);
  }

  /** A table whose words keep only {@code hashBits} (≤ {@link #TAG_BITS}) bits of each hash. */
  BytesKeyTable(Duplicates duplicates, int hashBits) {
    if (hashBits < 1 || hashBits > TAG_BITS) {
      throw new IllegalArgumentException("hash bits must be 1 to " + TAG_BITS + ", found " + hashBits);
    }
    this.duplicates = duplicates;
    this.tagMask = (1L << hashBits) - 1;
    allocate(MIN_CAPACITY);
  }

  void put(byte[] key, int length, long location) {
    int hash = hash(key, length);
    int slot = find(key, length, hash);
    if (slot >= 0) {
      values[slot] = duplicates.add(values[slot], location);
      return;
    }
    slot = -slot - 1;
    words[slot] = word(arena.append(key, length), hash);
    values[slot] = location;
    if (++size > maxFill) {
      rehash(capacity() * 2);
    }
  }

  /** The key's slot value, or {@link Duplicates#ABSENT}. */
  long get(byte[] key, int length) {
    int slot = find(key, length, hash(key, length));
    return slot >= 0 ? values[slot] : Duplicates.ABSENT;
  }

  void remove(byte[] key, int length, long location) {
    int slot = find(key, length, hash(key, length));
    if (slot < 0) {
      return;
    }
    long updated = duplicates.remove(values[slot], location);
    if (updated == Duplicates.ABSENT) {
      removeSlot(slot);
      shrinkOrCompact();
    } else {
      values[slot] = updated;
    }
  }

  /** {@code remove(key, replaced)} then {@code put(key, location)}; one probe when {@code replaced} is the key's only location. */
  void replace(byte[] key, int length, long replaced, long location) {
    int slot = find(key, length, hash(key, length));
    if (slot >= 0 && values[slot] == replaced) {
      values[slot] = location;
      return;
    }
    remove(key, length, replaced);
    put(key, length, location);
  }

  void removeFile(int fileId) {
    int slot = 0;
    while (slot < words.length) {
      if (words[slot] != EMPTY) {
        long updated = duplicates.removeFile(values[slot], fileId);
        if (updated == Duplicates.ABSENT) {
          // The shift may move a not yet visited key into this slot: look at it again.
          removeSlot(slot);
          continue;
        }
        values[slot] = updated;
      }
      slot++;
    }
    shrinkOrCompact();
  }

  long keyCount() {
    return size;
  }

  long estimatedHeapBytes() {
    return OBJECT_OVERHEAD_BYTES + (long) capacity() * (Long.BYTES + Long.BYTES) + arena.estimatedHeapBytes();
  }

  /** The key's slot, or {@code -(free slot) - 1} where it would be inserted. */
  private int find(byte[] key, int length, int hash) {
    int slot = hash & mask;
    long tag = hash & tagMask;
    long word;
    while ((word = words[slot]) != EMPTY) {
      if ((word & tagMask) == tag && arena.matches(word >>> TAG_BITS, key, length)) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
    return -slot - 1;
  }

  /** Empties {@code slot}, shifting back later keys of its cluster (as fastutil's shiftKeys). */
  private void removeSlot(int slot) {
    arena.release(words[slot] >>> TAG_BITS);
    size--;
    int last = slot;
    int current = slot;
    while (true) {
      current = (current + 1) & mask;
      if (words[current] == EMPTY) {
        words[last] = EMPTY;
        return;
      }
      int home = home(words[current]);
      boolean mayMove = last <= current ? last >= home || home > current : last >= home && home > current;
      if (mayMove) {
        words[last] = words[current];
        values[last] = values[current];
        last = current;
      }
    }
  }

  private void shrinkOrCompact() {
    if (size < maxFill / 4 && capacity() > MIN_CAPACITY) {
      rehash(Math.max(MIN_CAPACITY, capacity() / 2));
    }
    if (arena.garbageBytes() > MIN_COMPACTION_GARBAGE_BYTES && arena.garbageBytes() > arena.liveBytes()) {
      KeyArena compacted = new KeyArena();
      for (int slot = 0; slot < words.length; slot++) {
        long word = words[slot];
        if (word != EMPTY) {
          words[slot] = (arena.copyRecord(word >>> TAG_BITS, compacted) << TAG_BITS) | (word & tagMask);
        }
      }
      arena = compacted;
    }
  }

  private void rehash(int newCapacity) {
    if (newCapacity > MAX_CAPACITY) {
      throw new IllegalStateException("key index is full: " + size + " keys, the limit is "
          + (long) (MAX_CAPACITY * MAX_LOAD) + " keys of a non-long key type");
    }
    long[] oldWords = words;
    long[] oldValues = values;
    allocate(newCapacity);
    for (int old = 0; old < oldWords.length; old++) {
      if (oldWords[old] != EMPTY) {
        int slot = home(oldWords[old]);
        while (words[slot] != EMPTY) {
          slot = (slot + 1) & mask;
        }
        words[slot] = oldWords[old];
        values[slot] = oldValues[old];
      }
    }
  }

  private void allocate(int capacity) {
    words = new long[capacity];
    Arrays.fill(words, EMPTY);
    values = new long[capacity];
    mask = capacity - 1;
    maxFill = (int) Math.min(capacity - 1L, (long) Math.ceil(capacity * MAX_LOAD));
  }

  private int capacity() {
    return words.length;
  }

  private long word(long address, int hash) {
    return (address << TAG_BITS) | (hash & tagMask);
  }

  /** The slot where the key of {@code word} belongs in the current table. */
  private int home(long word) {
    return mask <= tagMask ? (int) (word & mask) : arena.hash(word >>> TAG_BITS) & mask;
  }

  /** A 32-bit hash of {@code key[0, length)}: 8-byte words folded in, then a murmur3 finalizer. */
  static int hash(byte[] key, int length) {
    return hash(key, 0, length);
  }

  /** The same hash of {@code bytes[from, from + length)}. */
  static int hash(byte[] bytes, int from, int length) {
    long h = HASH_SEED ^ length;
    int position = from;
    int end = from + length;
    for (; position + Long.BYTES <= end; position += Long.BYTES) {
      h = Long.rotateLeft(h ^ ((long) LONG_VIEW.get(bytes, position) * HASH_MULTIPLIER), HASH_ROTATION)
          * HASH_SEED;
    }
    long tail = 0;
    for (int shift = 0; position < end; position++, shift += Byte.SIZE) {
      tail |= (bytes[position] & 0xFFL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * HASH_MULTIPLIER), HASH_ROTATION) * HASH_SEED;
    long mixed = HashCommon.mix(h);
    return (int) (mixed ^ (mixed >>> Integer.SIZE));
  }
}
