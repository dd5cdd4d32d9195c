package io.mergesink.core.index;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import java.util.List;
import java.util.Objects;

/**
 * Primary key → locations of the live rows holding it (docs/design.md, "Merge strategies"). The merge planner
 * looks up each changed key to find the row to mark deleted, and updates the index after each
 * commit.
 *
 * <p><b>Exact.</b> A location is only ever reported for a key equal to the looked-up key: hashes
 * only pick where to look, the full key (a long, or the canonical bytes of {@link KeyEncoder}) is
 * always compared.
 *
 * <p><b>Layouts</b>, picked by {@link #create} from the key schema:
 *
 * <ul>
 *   <li>one byte, short, integer, long, date, timestamp or timestamp_ntz column: a primitive
 *       {@code long → long} open-addressing map (fastutil), 21–43 heap bytes per key (≈ 34 at 1M
 *       keys), and a boxing-free fast path: {@link #putLong}, {@link #lookupLong},
 *       {@link #locationsLong}, {@link #removeLong};
 *   <li>any other key (strings, binary, decimals, floats, booleans, composite keys): the key's
 *       canonical bytes in an arena plus an open-addressing table, about 27–53 bytes per key plus
 *       the encoded key (a 16-character ASCII string encodes to 17 bytes, 18 with the arena's
 *       length prefix).
 * </ul>
 *
 * <p>Measured with {@code KeyIndexMemoryProbe} (JDK 17, heap after GC, matching
 * {@link #estimatedHeapBytes}; G1 adds up to a region per large table array), bytes per key at
 * 1M / 10M keys: bigint 33.6 / 26.8; 16-character string 60.0 / 51.6; (int, long) 55.0 / 46.6;
 * (int, 16-character string) 64.0 / 55.6.
 *
 * <p><b>Duplicates.</b> A key may have several locations (a table written by another tool can
 * hold several live rows per key). {@link #put} of a second location keeps both; a lookup says
 * {@link #MULTIPLE_LOCATIONS} and {@link #locations} returns them all, so the planner deletes
 * them all. Putting a (key, location) pair that is already there changes nothing.
 *
 * <p><b>Lookups.</b> {@link #lookup} allocates nothing on the common path and returns the single
 * location, {@link #NO_LOCATION} or {@link #MULTIPLE_LOCATIONS}; on the last, call
 * {@link #locations}.
 *
 * <p>Keys must have no null component; a null, a value of the wrong Java class (see
 * {@link io.mergesink.core.types.DataType}) or a row of the wrong width is rejected with an
 * {@link IllegalArgumentException} naming the column. Not thread-safe: an index belongs to one
 * writer thread.
 */
public final class KeyIndex {
  /** {@link #lookup} result: the key has no live row. */
  public static final long NO_LOCATION = -1L;
  /** {@link #lookup} result: the key has several live rows; {@link #locations} lists them. */
  public static final long MULTIPLE_LOCATIONS = -2L;

  private static final long[] NO_LOCATIONS = new long[0];
  private static final int OBJECT_OVERHEAD_BYTES = 64;

  private final StructType keySchema;
  private final Duplicates duplicates = new Duplicates();
  /** Exactly one of the two tables is set. */
  private final LongKeyTable longKeys;
  private final BytesKeyTable bytesKeys;
  private final KeyEncoder encoder;

  private KeyIndex(StructType keySchema) {
    TypedKeys.checkSchema(keySchema);
    this.keySchema = keySchema;
    if (TypedKeys.isSingleLong(keySchema)) {
      this.longKeys = new LongKeyTable(duplicates);
      this.bytesKeys = null;
      this.encoder = null;
    } else {
      this.longKeys = null;
      this.bytesKeys = new BytesKeyTable(duplicates);
      this.encoder = new KeyEncoder(keySchema);
    }
  }

  /**
   * An empty index for keys of {@code keySchema} (the key columns in key order).
   *
   * @throws IllegalArgumentException when the schema has no column or a nested column
   */
  public static KeyIndex create(StructType keySchema) {
    return new KeyIndex(Objects.requireNonNull(keySchema, "keySchema"));
  }

  public StructType keySchema() {
    return keySchema;
  }

  /** Whether keys are one long-like column, so the {@code *Long} methods may be used. */
  public boolean isLongKeyed() {
    return longKeys != null;
  }

  /** Adds {@code location} (from {@link RowLocation#pack}) to the locations of {@code key}. */
  public void put(Row key, long location) {
    RowLocation.checkValid(location);
    if (longKeys != null) {
      longKeys.put(TypedKeys.singleLong(keySchema, key), location);
    } else {
      int length = encoder.encode(key); // first: encoding may replace the buffer
      bytesKeys.put(encoder.buffer(), length, location);
    }
  }

  /** The single location of {@code key}, {@link #NO_LOCATION} or {@link #MULTIPLE_LOCATIONS}. */
  public long lookup(Row key) {
    return publicResult(slotValue(key));
  }

  /**
   * {@link #lookup} of every key, in one pass: for long keys all key values are read first and
   * the table is then probed in one tight loop, so that the CPU overlaps the cache misses of a
   * table far larger than its caches.
   */
  public long[] lookupAll(List<Row> keys) {
    long[] found = new long[keys.size()];
    if (longKeys == null) {
      for (int i = 0; i < found.length; i++) {
        found[i] = lookup(keys.get(i));
      }
      return found;
    }
    long[] values = longValues(keys);
    for (int i = 0; i < found.length; i++) {
      found[i] = publicResult(longKeys.get(values[i]));
    }
    return found;
  }

  /**
   * For each {@code i}: {@link #replace}{@code (keys.get(i), replaced[i], locations[i])}, or
   * {@link #put}{@code (keys.get(i), locations[i])} when {@code replaced[i]} is
   * {@link #NO_LOCATION}. The bulk form of a commit's index update, one tight loop over the table
   * like {@link #lookupAll}.
   */
  public void putAll(List<Row> keys, long[] replaced, long[] locations) {
    for (int i = 0; i < keys.size(); i++) {
      if (replaced[i] != NO_LOCATION) {
        RowLocation.checkValid(replaced[i]);
      }
      RowLocation.checkValid(locations[i]);
    }
    if (longKeys == null) {
      for (int i = 0; i < keys.size(); i++) {
        if (replaced[i] == NO_LOCATION) {
          put(keys.get(i), locations[i]);
        } else {
          replace(keys.get(i), replaced[i], locations[i]);
        }
      }
      return;
    }
    long[] values = longValues(keys);
    for (int i = 0; i < values.length; i++) {
      if (replaced[i] == NO_LOCATION) {
        longKeys.put(values[i], locations[i]);
      } else {
        longKeys.replace(values[i], replaced[i], locations[i]);
      }
    }
  }

  /** All locations of {@code key}, in no particular order; empty when it has none. */
  public long[] locations(Row key) {
    return toArray(slotValue(key));
  }

  /** Whether {@code key} has more than one location. */
  public boolean hasDuplicates(Row key) {
    return Duplicates.isHandle(slotValue(key));
  }

  /** Removes {@code location} from the locations of {@code key}, if it is there. */
  public void remove(Row key, long location) {
    RowLocation.checkValid(location);
    if (longKeys != null) {
      longKeys.remove(TypedKeys.singleLong(keySchema, key), location);
    } else {
      int length = encoder.encode(key); // first: encoding may replace the buffer
      bytesKeys.remove(encoder.buffer(), length, location);
    }
  }

  /**
   * {@link #remove}{@code (key, replaced)} then {@link #put}{@code (key, location)}, with one
   * lookup when {@code replaced} is the key's only location (a row replaced by its new version).
   */
  public void replace(Row key, long replaced, long location) {
    RowLocation.checkValid(replaced);
    RowLocation.checkValid(location);
    if (longKeys != null) {
      longKeys.replace(TypedKeys.singleLong(keySchema, key), replaced, location);
    } else {
      int length = encoder.encode(key); // first: encoding may replace the buffer
      bytesKeys.replace(encoder.buffer(), length, replaced, location);
    }
  }

  /** {@link #put} for a long-keyed index, with the key value widened to a long. */
  public void putLong(long key, long location) {
    RowLocation.checkValid(location);
    requireLongKeys("putLong").put(key, location);
  }

  /** {@link #lookup} for a long-keyed index, with the key value widened to a long. */
  public long lookupLong(long key) {
    return publicResult(requireLongKeys("lookupLong").get(key));
  }

  /** {@link #locations} for a long-keyed index, with the key value widened to a long. */
  public long[] locationsLong(long key) {
    return toArray(requireLongKeys("locationsLong").get(key));
  }

  /** {@link #remove} for a long-keyed index, with the key value widened to a long. */
  public void removeLong(long key, long location) {
    RowLocation.checkValid(location);
    requireLongKeys("removeLong").remove(key, location);
  }

  /** Drops every location in file {@code fileId}: one pass over the whole index. */
  public void removeFile(int fileId) {
    if (longKeys != null) {
      longKeys.removeFile(fileId);
    } else {
      bytesKeys.removeFile(fileId);
    }
  }

  /** The number of (key, location) pairs held. */
  public long size() {
    return keyCount() - duplicates.listsInUse() + duplicates.locationsInLists();
  }

  /** The number of distinct keys held. */
  public long keyCount() {
    return longKeys != null ? longKeys.keyCount() : bytesKeys.keyCount();
  }

  /**
   * The heap this index holds, from its array sizes (64-bit JVM, compressed references); within
   * a few percent of a measured heap difference. Growth briefly needs the old and the new table.
   */
  public long estimatedHeapBytes() {
    long tables = longKeys != null ? longKeys.estimatedHeapBytes() : bytesKeys.estimatedHeapBytes();
    return OBJECT_OVERHEAD_BYTES + tables + duplicates.estimatedHeapBytes();
  }

  @Override
  public String toString() {
    return "KeyIndex{" + keySchema + ", layout=" + (longKeys != null ? "long" : "bytes") + ", keys="
        + keyCount() + ", locations=" + size() + ", heapBytes=" + estimatedHeapBytes() + "}";
  }

  private long[] longValues(List<Row> keys) {
    long[] values = new long[keys.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = TypedKeys.singleLong(keySchema, keys.get(i));
    }
    return values;
  }

  private long slotValue(Row key) {
    if (longKeys != null) {
      return longKeys.get(TypedKeys.singleLong(keySchema, key));
    }
    int length = encoder.encode(key); // first: encoding may replace the buffer
    return bytesKeys.get(encoder.buffer(), length);
  }

  private LongKeyTable requireLongKeys(String method) {
    if (longKeys == null) {
      throw new IllegalStateException(method + " needs a key of one long-like column (byte, short, integer, "
          + "long, date, timestamp, timestamp_ntz), but this index's key schema is " + keySchema
          + "; use the Row methods");
    }
    return longKeys;
  }

  private static long publicResult(long slotValue) {
    if (slotValue == Duplicates.ABSENT) {
      return NO_LOCATION;
    }
    return Duplicates.isHandle(slotValue) ? MULTIPLE_LOCATIONS : slotValue;
  }

  private long[] toArray(long slotValue) {
    return slotValue == Duplicates.ABSENT ? NO_LOCATIONS : duplicates.toArray(slotValue);
  }
}
