package io.mergesink.core.merge;

import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.index.KeyIndex;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.index.RowLocation;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replaces {@link Unchanged#VALUE} markers in upserts with the values of the live rows they replace
 * (for an upsert ending a primary-key change without a row of its own, the row of its previous
 * key; null where there is none). Reads only the files holding such rows, once each, and in them
 * only the row groups holding such rows.
 */
public final class UnchangedFiller {
  private UnchangedFiller() {}

  static List<Row> fill(Storage storage, Snapshot snapshot, LiveRowIndex index, KeyedChanges changes) throws IOException {
    List<Row> upserts = changes.upserts();
    Map<String, TreeMap<Long, Integer>> upsertByRowIndexByFile = new HashMap<>();
    List<Row> filled = new ArrayList<>(upserts);
    for (int i = 0; i < upserts.size(); i++) {
      if (!hasUnchanged(upserts.get(i))) {
        continue;
      }
      long location = index.anyLocation(changes.upsertKeys()[i]);
      Row previousKey = changes.previousKey(i);
      if (location == KeyIndex.NO_LOCATION && previousKey != null) {
        location = index.anyLocation(previousKey);
      }
      if (location == KeyIndex.NO_LOCATION) {
        filled.set(i, merge(upserts.get(i), null));
      } else {
        upsertByRowIndexByFile.computeIfAbsent(index.path(location), path -> new TreeMap<>())
            .put(RowLocation.rowIndex(location), i);
      }
    }
    LogicalFileReader reader = LogicalFileReader.of(storage, snapshot, List.of());
    for (Map.Entry<String, TreeMap<Long, Integer>> file : upsertByRowIndexByFile.entrySet()) {
      TreeMap<Long, Integer> wanted = file.getValue();
      long[] positions = wanted.keySet().stream().mapToLong(Long::longValue).toArray();
      Row[] current = reader.readAt(TouchedFiles.live(snapshot, file.getKey()), positions);
      for (int i = 0; i < positions.length; i++) {
        int upsert = wanted.get(positions[i]);
        filled.set(upsert, merge(upserts.get(upsert), current[i]));
      }
    }
    return filled;
  }

  /** {@code row} with every {@link Unchanged#VALUE} replaced by null, for rows with no previous version. */
  public static Row withNulls(Row row) {
    return hasUnchanged(row) ? merge(row, null) : row;
  }

  /** Whether {@code row} marks a column {@link Unchanged#VALUE}. */
  public static boolean hasUnchanged(Row row) {
    for (int i = 0; i < row.size(); i++) {
      if (row.get(i) == Unchanged.VALUE) {
        return true;
      }
    }
    return false;
  }

  /** {@code upsert} with every {@link Unchanged#VALUE} taken from {@code current} (null: no row, the values are null). */
  public static Row merge(Row upsert, Row current) {
    Object[] values = upsert.toArray();
    for (int i = 0; i < values.length; i++) {
      if (values[i] == Unchanged.VALUE) {
        values[i] = current == null ? null : current.get(i);
      }
    }
    return Row.of(values);
  }
}
