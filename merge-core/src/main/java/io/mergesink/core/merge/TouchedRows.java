package io.mergesink.core.merge;

import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.changes.MovedRowsException;
import io.mergesink.core.changes.RowPosition;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.KeyIndex;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.index.RowLocation;
import io.mergesink.core.snapshot.Snapshot;
import java.util.LinkedHashMap;
import java.util.Map;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The live rows a change set replaces or deletes, found through the key index, and the rows it
 * removes by position: for each file the row indexes that must go. Every key's rows go, duplicates
 * included (a table written by another tool may hold a key twice; its next change removes all of them).
 */
final class TouchedRows {
  private final Map<String, Roaring64NavigableMap> positionsByFile = new LinkedHashMap<>();
  private final Map<String, Roaring64NavigableMap> removalsByFile = new LinkedHashMap<>();
  private final long[] replacedLocations;
  private long rowCount;

  private TouchedRows(long[] replacedLocations) {
    this.replacedLocations = replacedLocations;
  }

  /**
   * Looks up every changed key. The rows of deleted keys, and of upserted keys with several rows,
   * are recorded in {@code delta} as removed; an upserted key's single row is left for the caller
   * to record with {@link IndexDelta#replaceRow} and {@link #replacedLocation} when it writes the
   * new row.
   */
  static TouchedRows lookup(LiveRowIndex index, Snapshot snapshot, KeyedChanges changes, IndexDelta delta) throws MovedRowsException {
    Row[] upsertKeys = changes.upsertKeys();
    TouchedRows touched = new TouchedRows(index.lookup(upsertKeys));
    for (int i = 0; i < upsertKeys.length; i++) {
      long location = touched.replacedLocations[i];
      if (location == KeyIndex.MULTIPLE_LOCATIONS) {
        touched.removeAll(index, upsertKeys[i], delta);
        touched.replacedLocations[i] = KeyIndex.NO_LOCATION;
      } else if (location != KeyIndex.NO_LOCATION) {
        touched.mark(index, location);
      }
    }
    Row[] deleteKeys = changes.deleteKeys();
    long[] deleted = index.lookup(deleteKeys);
    for (int i = 0; i < deleteKeys.length; i++) {
      if (deleted[i] == KeyIndex.MULTIPLE_LOCATIONS) {
        touched.removeAll(index, deleteKeys[i], delta);
      } else if (deleted[i] != KeyIndex.NO_LOCATION) {
        touched.mark(index, deleted[i]);
        delta.removeRow(deleteKeys[i], deleted[i]);
      }
    }
    for (RowPosition removal : changes.removals()) {
      if (!snapshot.files().containsKey(removal.path())) {
        throw new MovedRowsException(snapshot.tableRoot(), removal, "its file is no longer live at version " + snapshot.version());
      }
      touched.removalsByFile.computeIfAbsent(removal.path(), path -> new Roaring64NavigableMap()).addLong(removal.rowIndex());
      touched.mark(removal.path(), removal.rowIndex());
    }
    return touched;
  }

  /** Whether the change set removes rows of {@code file} by position. */
  boolean removesByPosition(String file) {
    return removalsByFile.containsKey(file);
  }

  /**
   * Checks that the rows removed by position from {@code file} are still there: not deleted by
   * its deletion vector {@code deleted} (before this change set's), and within its {@code physicalRows}.
   */
  void checkRemovable(String tableRoot, String file, Roaring64NavigableMap deleted, long physicalRows) throws MovedRowsException {
    Roaring64NavigableMap removals = removalsByFile.get(file);
    if (removals == null) {
      return;
    }
    for (long rowIndex : removals.toArray()) {
      if (rowIndex >= physicalRows || deleted.contains(rowIndex)) {
        throw new MovedRowsException(tableRoot, new RowPosition(file, rowIndex), "that row is deleted");
      }
    }
  }

  /** The location of the single live row upsert {@code upsert} replaces, or {@link KeyIndex#NO_LOCATION}. */
  long replacedLocation(int upsert) {
    return replacedLocations[upsert];
  }

  /** Row indexes to delete, by table-relative file path, in lookup order. */
  Map<String, Roaring64NavigableMap> positionsByFile() {
    return positionsByFile;
  }

  long rowCount() {
    return rowCount;
  }

  private void removeAll(LiveRowIndex index, Row key, IndexDelta delta) {
    for (long location : index.locations(key)) {
      mark(index, location);
      delta.removeRow(key, location);
    }
  }

  private void mark(LiveRowIndex index, long location) {
    mark(index.path(location), RowLocation.rowIndex(location));
  }

  private void mark(String file, long rowIndex) {
    positionsByFile.computeIfAbsent(file, path -> new Roaring64NavigableMap()).addLong(rowIndex);
    rowCount++;
  }
}
