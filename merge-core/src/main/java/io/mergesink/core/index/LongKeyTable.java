package io.mergesink.core.index;

import it.unimi.dsi.fastutil.Hash;
import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectIterator;

/**
 * Keys that are one long-like column: fastutil's open-addressing {@code long → long} map from the
 * key to its slot value (see {@link Duplicates}). Two {@code long[]} arrays of a power-of-two
 * capacity filled to at most {@value #LOAD_FACTOR}: 16 bytes per slot, so between 21.3 and 42.7
 * heap bytes per key (33.6 at 1M keys, 26.8 at 10M: it depends on where the size falls between two
 * resizes), plus a transient doubling while it grows.
 */
final class LongKeyTable {
  static final float LOAD_FACTOR = Hash.DEFAULT_LOAD_FACTOR;

  /** Exposes the capacity for the heap estimate. */
  private static final class CapacityMap extends Long2LongOpenHashMap {
    private static final long serialVersionUID = 1L;

    CapacityMap() {
      super(Hash.DEFAULT_INITIAL_SIZE, LOAD_FACTOR);
      defaultReturnValue(Duplicates.ABSENT);
    }

    long arrayBytes() {
      return (long) (key.length + value.length) * Long.BYTES;
    }
  }

  private static final int OBJECT_OVERHEAD_BYTES = 64;

  private final CapacityMap map = new CapacityMap();
  private final Duplicates duplicates;

  LongKeyTable(Duplicates duplicates) {
    this.duplicates = duplicates;
  }

  void put(long key, long location) {
    long existing = map.putIfAbsent(key, location);
    if (existing != Duplicates.ABSENT) {
      long updated = duplicates.add(existing, location);
      if (updated != existing) {
        map.put(key, updated);
      }
    }
  }

  /** The key's slot value, or {@link Duplicates#ABSENT}. */
  long get(long key) {
    return map.get(key);
  }

  void remove(long key, long location) {
    long existing = map.get(key);
    if (existing == Duplicates.ABSENT) {
      return;
    }
    long updated = duplicates.remove(existing, location);
    if (updated == Duplicates.ABSENT) {
      map.remove(key);
    } else if (updated != existing) {
      map.put(key, updated);
    }
  }

  /** {@code remove(key, replaced)} then {@code put(key, location)}; one lookup when {@code replaced} is the key's only location. */
  void replace(long key, long replaced, long location) {
    // one probe: only a key whose single location is replaced has it as its slot value
    if (!map.replace(key, replaced, location)) {
      remove(key, replaced);
      put(key, location);
    }
  }

  void removeFile(int fileId) {
    ObjectIterator<Long2LongMap.Entry> entries = map.long2LongEntrySet().fastIterator();
    while (entries.hasNext()) {
      Long2LongMap.Entry entry = entries.next();
      long existing = entry.getLongValue();
      long updated = duplicates.removeFile(existing, fileId);
      if (updated == Duplicates.ABSENT) {
        entries.remove();
      } else if (updated != existing) {
        entry.setValue(updated);
      }
    }
  }

  /** Keys held (a key with several locations counts once). */
  long keyCount() {
    return map.size();
  }

  long estimatedHeapBytes() {
    return OBJECT_OVERHEAD_BYTES + map.arrayBytes();
  }
}
