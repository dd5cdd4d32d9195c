package io.mergesink.core.index;

/**
 * A live row's location packed into one non-negative {@code long}: the data file's id from a
 * {@link FileRegistry} and the row's position in that file (the position a deletion vector
 * marks).
 *
 * <p>Bit layout, most significant first: 1 reserved bit (always 0, so every location is
 * non-negative and negative values stay free for sentinels), {@value #FILE_ID_BITS} bits file id,
 * {@value #ROW_INDEX_BITS} bits row index.
 */
public final class RowLocation {
  /** Width of the row-index field: rows per file must be below 2^40. */
  public static final int ROW_INDEX_BITS = 40;
  /** Width of the file-id field: at most 2^23 (about 8.4 million) files registered at once. */
  public static final int FILE_ID_BITS = 23;
  /** The largest row index a location can hold. */
  public static final long MAX_ROW_INDEX = (1L << ROW_INDEX_BITS) - 1;
  /** The largest file id a location can hold. */
  public static final int MAX_FILE_ID = (1 << FILE_ID_BITS) - 1;

  private static final long ROW_INDEX_MASK = MAX_ROW_INDEX;

  private RowLocation() {}

  /**
   * The location of row {@code rowIndex} in file {@code fileId}.
   *
   * @throws IllegalArgumentException when a component is negative or wider than its field
   */
  public static long pack(int fileId, long rowIndex) {
    if (fileId < 0 || fileId > MAX_FILE_ID) {
      throw new IllegalArgumentException(
          "file id must be in 0.." + MAX_FILE_ID + " (" + FILE_ID_BITS + " bits), found " + fileId);
    }
    if (rowIndex < 0 || rowIndex > MAX_ROW_INDEX) {
      throw new IllegalArgumentException("row index must be in 0.." + MAX_ROW_INDEX + " ("
          + ROW_INDEX_BITS + " bits), found " + rowIndex + " in file id " + fileId);
    }
    return ((long) fileId << ROW_INDEX_BITS) | rowIndex;
  }

  /** The file id of a packed location. */
  public static int fileId(long location) {
    return (int) (location >>> ROW_INDEX_BITS);
  }

  /** The row index of a packed location. */
  public static long rowIndex(long location) {
    return location & ROW_INDEX_MASK;
  }

  /** Whether {@code location} is a value {@link #pack} can return. */
  public static boolean isValid(long location) {
    return location >= 0;
  }

  /**
   * Checks that {@code location} is a packed location.
   *
   * @throws IllegalArgumentException when it is negative (a sentinel such as
   *     {@link KeyIndex#NO_LOCATION}, or not made by {@link #pack})
   */
  static long checkValid(long location) {
    if (location < 0) {
      throw new IllegalArgumentException(
          "expected a location made by RowLocation.pack (non-negative), found " + location);
    }
    return location;
  }

  /** "file 3 row 17", for messages. */
  public static String toString(long location) {
    return location < 0 ? "no location (" + location + ")"
        : "file " + fileId(location) + " row " + rowIndex(location);
  }
}
