package io.mergesink.core.merge;

import io.mergesink.core.data.Row;
import io.mergesink.core.index.KeyIndex;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.index.RowLocation;
import io.mergesink.core.layout.DataLayout;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.parquet.DataFileReader;
import io.mergesink.core.rowtracking.MaterializedColumns;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stable row ids of the rows a change set's upserts replace: an updated row keeps its row id,
 * as Delta's MERGE and UPDATE keep it (PROTOCOL.md, "Row IDs": writers preserve the stable row ids
 * of updated rows through the materialized row id column). Each id is the replaced row's
 * materialized one, read by position from its file, or else its file's {@code baseRowId} plus its
 * position.
 */
final class ReplacedRowIds {
  private ReplacedRowIds() {}

  /**
   * Per upsert (in {@code touched}'s order), the stable row id of the single live row it replaces;
   * null for an upsert that replaces none (an insert, or a key that had several rows) and for every
   * upsert of a table without materialized row tracking columns, whose rows keep no id.
   */
  static Long[] of(Storage storage, Snapshot snapshot, LiveRowIndex index, TouchedRows touched, int upserts) throws IOException {
    Long[] ids = new Long[upserts];
    MaterializedColumns columns = MaterializedColumns.of(snapshot.protocol(), snapshot.metadata()).orElse(null);
    if (columns == null) {
      return ids;
    }
    Map<String, List<Integer>> upsertsByFile = new LinkedHashMap<>();
    for (int i = 0; i < upserts; i++) {
      long location = touched.replacedLocation(i);
      if (location != KeyIndex.NO_LOCATION) {
        upsertsByFile.computeIfAbsent(index.path(location), path -> new ArrayList<>()).add(i);
      }
    }
    StructType rowIdColumn = StructType.of(columns.schema().field(0));
    DataLayout layout = DataLayout.of(snapshot);
    for (Map.Entry<String, List<Integer>> file : upsertsByFile.entrySet()) {
      AddFile live = TouchedFiles.live(snapshot, file.getKey());
      long[] positions = file.getValue().stream().mapToLong(i -> RowLocation.rowIndex(touched.replacedLocation(i))).sorted().distinct().toArray();
      Row[] materialized = DataFileReader.readAt(storage, LogPaths.resolve(snapshot.tableRoot(), live.path()), rowIdColumn, layout.match(),
          positions);
      for (int i : file.getValue()) {
        long position = RowLocation.rowIndex(touched.replacedLocation(i));
        Row stored = materialized[Arrays.binarySearch(positions, position)];
        ids[i] = MaterializedColumns.stableRowId((Long) stored.get(0), live, position);
      }
    }
    return ids;
  }
}
