package io.mergesink.core.merge;

import io.mergesink.core.data.Row;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.index.LiveRowIndex.IndexDelta;
import io.mergesink.core.index.RowLocation;
import java.util.LinkedHashMap;
import java.util.Map;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The live rows a change set replaces or deletes, found through the key index: for each file the
 * row indexes that must go. Every key's rows go, duplicates included (a table written by another
 * tool may hold a key twice; its next change removes all of them).
 */
final class TouchedRows {
  private final Map<String, Roaring64NavigableMap> positionsByFile = new LinkedHashMap<>();
  private long rowCount;

  /** Looks up every changed key and records its live rows in {@code delta} as removed. */
  static TouchedRows lookup(LiveRowIndex index, KeyedChanges changes, IndexDelta delta) {
    TouchedRows touched = new TouchedRows();
    touched.addAll(index, changes.upsertKeys(), delta);
    touched.addAll(index, changes.deleteKeys(), delta);
    return touched;
  }

  private void addAll(LiveRowIndex index, Row[] keys, IndexDelta delta) {
    for (Row key : keys) {
      index.forEachLocation(key, location -> {
        positionsByFile.computeIfAbsent(index.path(location), path -> new Roaring64NavigableMap())
            .addLong(RowLocation.rowIndex(location));
        delta.removeRow(key, location);
        rowCount++;
      });
    }
  }

  /** Row indexes to delete, by table-relative file path, in lookup order. */
  Map<String, Roaring64NavigableMap> positionsByFile() {
    return positionsByFile;
  }

  long rowCount() {
    return rowCount;
  }
}
