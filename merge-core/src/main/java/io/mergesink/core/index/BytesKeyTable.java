package io.mergesink.core.index;

import it.unimi.dsi.fastutil.HashCommon;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Keys in their canonical byte form ({@link KeyEncoder}): an open-addressing table (linear
 * probing, power-of-two capacity, load ≤ {@value #MAX_LOAD}) of parallel arrays — the key's
 * {@link KeyArena} address, its slot value ({@link Duplicates}) and its 32-bit hash — with the key
 * bytes themselves in the arena. 20 bytes per slot plus the key's bytes and a 1-byte length in
 * the arena. A lookup compares hashes first and then the full bytes, so equal hashes never make
 * unequal keys match.
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
  private KeyArena arena = new KeyArena();
  private long[] addresses;
  private long[] values;
  private int[] hashes;
  private int mask;
  private int maxFill;
  private int size;

  BytesKeyTable(Duplicates duplicates) {
    this.duplicates = duplicates;
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
    addresses[slot] = arena.append(key, length);
    values[slot] = location;
    hashes[slot] = hash;
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
    while (slot < addresses.length) {
      if (addresses[slot] != EMPTY) {
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
    return OBJECT_OVERHEAD_BYTES + (long) capacity() * (Long.BYTES + Long.BYTES + Integer.BYTES)
        + arena.estimatedHeapBytes();
  }

  /** The key's slot, or {@code -(free slot) - 1} where it would be inserted. */
  private int find(byte[] key, int length, int hash) {
    int slot = hash & mask;
    while (addresses[slot] != EMPTY) {
      if (hashes[slot] == hash && arena.matches(addresses[slot], key, length)) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
    return -slot - 1;
  }

  /** Empties {@code slot}, shifting back later keys of its cluster (as fastutil's shiftKeys). */
  private void removeSlot(int slot) {
    arena.release(addresses[slot]);
    size--;
    int last = slot;
    int current = slot;
    while (true) {
      current = (current + 1) & mask;
      if (addresses[current] == EMPTY) {
        addresses[last] = EMPTY;
        return;
      }
      int home = hashes[current] & mask;
      boolean mayMove = last <= current ? last >= home || home > current : last >= home && home > current;
      if (mayMove) {
        addresses[last] = addresses[current];
        values[last] = values[current];
        hashes[last] = hashes[current];
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
      for (int slot = 0; slot < addresses.length; slot++) {
        if (addresses[slot] != EMPTY) {
          addresses[slot] = arena.copyRecord(addresses[slot], compacted);
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
    long[] oldAddresses = addresses;
    long[] oldValues = values;
    int[] oldHashes = hashes;
    allocate(newCapacity);
    for (int old = 0; old < oldAddresses.length; old++) {
      if (oldAddresses[old] != EMPTY) {
        int slot = oldHashes[old] & mask;
        while (addresses[slot] != EMPTY) {
          slot = (slot + 1) & mask;
        }
        addresses[slot] = oldAddresses[old];
        values[slot] = oldValues[old];
        hashes[slot] = oldHashes[old];
      }
    }
  }

  private void allocate(int capacity) {
    addresses = new long[capacity];
    Arrays.fill(addresses, EMPTY);
    values = new long[capacity];
    hashes = new int[capacity];
    mask = capacity - 1;
    maxFill = (int) Math.min(capacity - 1L, (long) Math.ceil(capacity * MAX_LOAD));
  }

  private int capacity() {
    return addresses.length;
  }

  /** A 32-bit hash of {@code key[0, length)}: 8-byte words folded in, then a murmur3 finalizer. */
  static int hash(byte[] key, int length) {
    long h = HASH_SEED ^ length;
    int position = 0;
    for (; position + Long.BYTES <= length; position += Long.BYTES) {
      h = Long.rotateLeft(h ^ ((long) LONG_VIEW.get(key, position) * HASH_MULTIPLIER), HASH_ROTATION)
          * HASH_SEED;
    }
    long tail = 0;
    for (int shift = 0; position < length; position++, shift += Byte.SIZE) {
      tail |= (key[position] & 0xFFL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * HASH_MULTIPLIER), HASH_ROTATION) * HASH_SEED;
    long mixed = HashCommon.mix(h);
    return (int) (mixed ^ (mixed >>> Integer.SIZE));
  }
}
