package io.mergesink.core.index;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.HashSet;
import java.util.Set;

/**
 * The distinct keys of a batch, for finding a key that occurs twice or is among them. Keys of one long-like column
 * (see {@link KeyIndex}) go into a primitive set, about three times faster than a set of key
 * rows; other keys into a {@code HashSet<Row>} (deep equality, see {@link Row}). Not thread-safe.
 */
public final class KeySet {
  private final StructType keySchema;
  /** Exactly one of the two sets is set. */
  private final LongOpenHashSet longKeys;
  private final Set<Row> rowKeys;

  private KeySet(StructType keySchema, int expectedKeys) {
    TypedKeys.checkSchema(keySchema);
    this.keySchema = keySchema;
    if (TypedKeys.isSingleLong(keySchema)) {
      this.longKeys = new LongOpenHashSet(expectedKeys);
      this.rowKeys = null;
    } else {
      this.longKeys = null;
      this.rowKeys = new HashSet<>(expectedKeys * 2);
    }
  }

  /**
   * An empty set for keys of {@code keySchema} (the key columns in key order), sized for
   * {@code expectedKeys}.
   *
   * @throws IllegalArgumentException when the schema has no column or a nested column
   */
  public static KeySet create(StructType keySchema, int expectedKeys) {
    return new KeySet(keySchema, expectedKeys);
  }

  /**
   * Adds {@code key}; false when an equal key is already in the set.
   *
   * @throws IllegalArgumentException when a long-like key is null or of the wrong Java class
   */
  public boolean add(Row key) {
    return longKeys != null ? longKeys.add(TypedKeys.singleLong(keySchema, key)) : rowKeys.add(key);
  }

  /** Whether an equal key is in the set. */
  public boolean contains(Row key) {
    return longKeys != null ? longKeys.contains(TypedKeys.singleLong(keySchema, key)) : rowKeys.contains(key);
  }

  /**
   * Whether the key whose long-like value (as {@link TypedKeys#singleLong} gives it) is {@code key}
   * is in the set; only for a set of single long-like keys.
   */
  public boolean containsLong(long key) {
    if (longKeys == null) {
      throw new IllegalStateException("not a set of single long-like keys: " + keySchema);
    }
    return longKeys.contains(key);
  }
}
