package io.mergesink.core.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;

/**
 * The rare path of a {@link KeyIndex}: keys with several live rows (tables written by another
 * tool). A key table stores one {@code long} per key, its <em>slot value</em>: either the key's
 * only location (non-negative, see {@link RowLocation}) or a handle to a list held here
 * ({@link #HANDLE_FLAG} set, list number in the low 31 bits). The methods take a slot value and
 * return the slot value to store afterwards, or {@link #ABSENT} when the key has no location
 * left and its entry must be removed.
 *
 * <p>A list always holds at least two distinct locations: when one is left it is turned back into
 * a plain slot value and the list number is reused.
 */
final class Duplicates {
  /** Slot value meaning "no entry": the key has no location. */
  static final long ABSENT = -1L;
  /** Sign bit set on a slot value that is a list handle; locations never have it. */
  static final long HANDLE_FLAG = Long.MIN_VALUE;

  private static final long HANDLE_NUMBER_MASK = Integer.MAX_VALUE;
  private static final int INITIAL_LIST_CAPACITY = 2;
  /** Rough heap of one list: LongArrayList object + its long[] header (compressed oops). */
  private static final int LIST_OVERHEAD_BYTES = 32;
  private static final int REFERENCE_BYTES = 4;

  private final ObjectArrayList<LongArrayList> lists = new ObjectArrayList<>();
  private final IntArrayList freeNumbers = new IntArrayList();
  private int listsInUse;
  private long locationsInLists;

  /** Whether a slot value is a list handle (not a location and not {@link #ABSENT}). */
  static boolean isHandle(long slotValue) {
    return slotValue < ABSENT;
  }

  /** Adds {@code location} to a key's slot value (a no-op when the key already has it). */
  long add(long slotValue, long location) {
    if (!isHandle(slotValue)) {
      return slotValue == location ? slotValue : newList(slotValue, location);
    }
    LongArrayList list = list(slotValue);
    if (!list.contains(location)) {
      list.add(location);
      locationsInLists++;
    }
    return slotValue;
  }

  /** Removes {@code location} from a key's slot value, if there. */
  long remove(long slotValue, long location) {
    if (!isHandle(slotValue)) {
      return slotValue == location ? ABSENT : slotValue;
    }
    LongArrayList list = list(slotValue);
    if (list.rem(location)) {
      locationsInLists--;
      return collapse(slotValue, list);
    }
    return slotValue;
  }

  /** Removes every location in file {@code fileId} from a key's slot value. */
  long removeFile(long slotValue, int fileId) {
    if (!isHandle(slotValue)) {
      return RowLocation.fileId(slotValue) == fileId ? ABSENT : slotValue;
    }
    LongArrayList list = list(slotValue);
    int before = list.size();
    list.removeIf(location -> RowLocation.fileId(location) == fileId);
    locationsInLists -= before - list.size();
    return collapse(slotValue, list);
  }

  /** All locations of a slot value (empty for {@link #ABSENT}), as a new array. */
  long[] toArray(long slotValue) {
    if (slotValue == ABSENT) {
      return new long[0];
    }
    return isHandle(slotValue) ? list(slotValue).toLongArray() : new long[] {slotValue};
  }

  /** Lists in use, each standing for one key with at least two locations. */
  int listsInUse() {
    return listsInUse;
  }

  /** Locations held in lists. */
  long locationsInLists() {
    return locationsInLists;
  }

  long estimatedHeapBytes() {
    long bytes = (long) lists.size() * REFERENCE_BYTES + (long) freeNumbers.size() * Integer.BYTES;
    for (LongArrayList list : lists) {
      if (list != null) {
        bytes += LIST_OVERHEAD_BYTES + (long) list.elements().length * Long.BYTES;
      }
    }
    return bytes;
  }

  private long newList(long first, long second) {
    LongArrayList list = new LongArrayList(INITIAL_LIST_CAPACITY);
    list.add(first);
    list.add(second);
    int number;
    if (freeNumbers.isEmpty()) {
      number = lists.size();
      lists.add(list);
    } else {
      number = freeNumbers.popInt();
      lists.set(number, list);
    }
    listsInUse++;
    locationsInLists += 2;
    return HANDLE_FLAG | number;
  }

  /** The slot value for {@code list} after a removal: the list, its single location, or ABSENT. */
  private long collapse(long handle, LongArrayList list) {
    if (list.size() > 1) {
      return handle;
    }
    long remaining = list.isEmpty() ? ABSENT : list.getLong(0);
    int number = (int) (handle & HANDLE_NUMBER_MASK);
    lists.set(number, null);
    freeNumbers.add(number);
    listsInUse--;
    locationsInLists -= list.size();
    return remaining;
  }

  private LongArrayList list(long handle) {
    return lists.get((int) (handle & HANDLE_NUMBER_MASK));
  }
}
