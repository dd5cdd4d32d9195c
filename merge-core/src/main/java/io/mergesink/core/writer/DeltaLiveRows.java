package io.mergesink.core.writer;

import io.mergesink.core.changes.ReadSet;
import io.mergesink.core.changes.RowPosition;
import io.mergesink.core.changes.StoredRow;
import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.index.KeyIndex;
import io.mergesink.core.index.KeySet;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.index.RowLocation;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.merge.KeyRanges;
import io.mergesink.core.merge.TouchedFiles;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The {@link LiveRows} of a Delta table's {@link MergingTableWriter}. Lookups go through the
 * writer's key index and read nothing; {@link #read} reads rows by position (file and row index
 * from the index), only the columns asked for. Valid until the writer's next commit or refresh,
 * which move its index and snapshot on.
 */
public final class DeltaLiveRows implements LiveRows {
  private final Storage storage;
  private final Snapshot snapshot;
  private final LiveRowIndex index;
  private final ReadSet.Recorder reads;

  DeltaLiveRows(Storage storage, Snapshot snapshot, LiveRowIndex index) {
    this.storage = storage;
    this.snapshot = snapshot;
    this.index = index;
    this.reads = new ReadSet.Recorder(snapshot.version());
  }

  @Override
  public ReadSet reads() {
    return reads.readSet();
  }

  /** The snapshot the view answers for. */
  public Snapshot snapshot() {
    return snapshot;
  }

  @Override
  public String tableRoot() {
    return snapshot.tableRoot();
  }

  @Override
  public StructType schema() {
    return snapshot.schema();
  }

  @Override
  public StructType keySchema() {
    return index.keySchema();
  }

  /** Reads no file. */
  @Override
  public boolean[] contain(Row[] keys) {
    long[] locations = index.lookup(keys);
    boolean[] found = new boolean[keys.length];
    for (int i = 0; i < keys.length; i++) {
      found[i] = locations[i] != KeyIndex.NO_LOCATION;
      reads.key(index, keys[i]);
    }
    return found;
  }

  /**
   * Reads every file of the snapshot; a row counts when the index holds its key, so rows of files
   * out of the writer's scope are left out.
   */
  @Override
  public List<Row> readAll() throws IOException {
    StructType schema = snapshot.schema();
    int[] keyOrdinals = index.keySchema().fieldNames().stream().mapToInt(schema::indexOf).toArray();
    int flag = index.currentColumn().map(schema::indexOf).orElse(-1);
    reads.wholeScope(snapshot, index);
    List<Row> rows = new ArrayList<>();
    try (TableScan scan = TableScan.of(storage, snapshot, List.of())) {
      while (scan.hasNext()) {
        Row row = scan.next();
        if ((flag < 0 || CurrentRowColumn.isCurrent(row.get(flag)))
            && index.lookup(new Row[] {row.project(keyOrdinals)})[0] != KeyIndex.NO_LOCATION) {
          rows.add(row);
        }
      }
    }
    return rows;
  }

  /**
   * Reads every file of the snapshot whose key statistics may hold one of the keys
   * ({@link KeyRanges}: integral key columns prune by their min/max; other files are read), all
   * columns; keeps only the rows of those keys.
   */
  @Override
  public List<StoredRow> rowsOfKeys(Collection<Row> keys) throws IOException {
    List<StoredRow> found = new ArrayList<>();
    if (keys.isEmpty()) {
      return found;
    }
    keys.forEach(key -> reads.key(index, key));
    StructType schema = snapshot.schema();
    int[] keyOrdinals = index.keySchema().fieldNames().stream().mapToInt(schema::indexOf).toArray();
    KeySet wanted = KeySet.create(index.keySchema(), keys.size());
    keys.forEach(wanted::add);
    LogicalFileReader reader = LogicalFileReader.of(storage, snapshot, List.of());
    KeyRanges ranges = KeyRanges.of(reader, keyOrdinals, keys);
    DeletionVectorStore deletionVectors = new DeletionVectorStore(storage);
    for (AddFile file : snapshot.files().values()) {
      if (!ranges.mayHold(file)) {
        continue;
      }
      Roaring64NavigableMap deleted = TouchedFiles.deletedRows(deletionVectors, snapshot.tableRoot(), file);
      try (CloseableIterator<Row> rows = reader.read(file)) {
        long rowIndex = 0;
        while (rows.hasNext()) {
          Row row = rows.next();
          if (!deleted.contains(rowIndex) && wanted.contains(row.project(keyOrdinals))) {
            found.add(new StoredRow(new RowPosition(file.path(), rowIndex), row));
          }
          rowIndex++;
        }
      }
    }
    return found;
  }

  /**
   * Reads only the files holding such rows, once each, and in them only the row groups holding
   * them and only {@code columns}.
   */
  @Override
  public Row[] read(Row[] keys, List<String> columns) throws IOException {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("table " + snapshot.tableRoot() + ": reading live rows needs at least one column");
    }
    Row[] rows = new Row[keys.length];
    Map<String, TreeMap<Long, List<Integer>>> wantedByFile = new HashMap<>();
    for (int i = 0; i < keys.length; i++) {
      reads.key(index, keys[i]);
      long location = index.anyLocation(keys[i]);
      if (location != KeyIndex.NO_LOCATION) {
        wantedByFile.computeIfAbsent(index.path(location), path -> new TreeMap<>())
            .computeIfAbsent(RowLocation.rowIndex(location), row -> new ArrayList<>(1)).add(i);
      }
    }
    if (wantedByFile.isEmpty()) {
      return rows;
    }
    LogicalFileReader reader = LogicalFileReader.of(storage, snapshot, columns);
    for (Map.Entry<String, TreeMap<Long, List<Integer>>> file : wantedByFile.entrySet()) {
      TreeMap<Long, List<Integer>> wanted = file.getValue();
      long[] positions = wanted.keySet().stream().mapToLong(Long::longValue).toArray();
      Row[] values = reader.readAt(TouchedFiles.live(snapshot, file.getKey()), positions);
      for (int p = 0; p < positions.length; p++) {
        Row row = values[p];
        wanted.get(positions[p]).forEach(key -> rows[key] = row);
      }
    }
    return rows;
  }
}
