package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.changes.ReadSet;
import io.mergesink.core.changes.RowPosition;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.index.FileRegistry;
import io.mergesink.core.index.KeyIndex;
import io.mergesink.core.index.RowLocation;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Primary key → position (data file, row) of its live row in an Iceberg table, as of one snapshot
 * (docs/iceberg.md, "The key index"). It is merge-core's {@link KeyIndex} over the table's data
 * files, and it tracks, per data file, the position deletes that apply to it (its deletion vector,
 * or v2 position delete files), which a new deletion vector for the file must merge.
 *
 * <p>In a table that names a current-row column ({@link CurrentRowColumn}: a history table, which
 * keeps several versions of a key) only the current rows are live to it; the others are history,
 * which no key finds.
 *
 * <p>It follows later snapshots incrementally: files added are read (key columns only), files
 * removed are dropped, and a file whose position deletes another writer changed is read again.
 * Snapshots that add equality deletes (written by other engines), and snapshots it cannot reach
 * from its own (a rollback, an expired snapshot), make it read the whole table again.
 */
final class IcebergKeyIndex {
  private final Table table;
  private final List<String> keyColumns;
  private final StructType keySchema;
  /** The current-row column, or null: every row is live. */
  private final String currentColumn;
  private final FileRegistry ids = new FileRegistry();
  private final Map<String, TrackedFile> files = new HashMap<>();
  private KeyIndex index;
  private Long snapshotId;

  /** A data file with the position deletes that apply to it. */
  record TrackedFile(DataFile file, List<DeleteFile> positionDeletes) {}

  private IcebergKeyIndex(Table table, List<String> keyColumns, StructType keySchema, Optional<String> currentColumn) {
    this.table = table;
    this.keyColumns = List.copyOf(keyColumns);
    this.keySchema = keySchema;
    this.currentColumn = currentColumn.orElse(null);
  }

  /**
   * The index of {@code snapshot} (null: an empty table) of {@code table}, keyed by {@code keyColumns};
   * with a {@code currentColumn}, of the rows it says are current.
   */
  static IcebergKeyIndex build(Table table, Snapshot snapshot, List<String> keyColumns, StructType keySchema,
      Optional<String> currentColumn) {
    IcebergKeyIndex keys = new IcebergKeyIndex(table, keyColumns, keySchema, currentColumn);
    keys.readAll(snapshot);
    return keys;
  }

  /** The heap the index takes, an estimate (the files it tracks not counted). */
  long estimatedHeapBytes() {
    return index == null ? 0 : index.estimatedHeapBytes();
  }

  /** The single location of {@code key}, {@link KeyIndex#NO_LOCATION} or {@link KeyIndex#MULTIPLE_LOCATIONS}. */
  long lookup(Row key) {
    return index.lookup(key);
  }

  /** All locations of {@code key} (several in a table another engine wrote). */
  long[] locations(Row key) {
    return index.locations(key);
  }

  /** The tracked data file of {@code location}. */
  TrackedFile file(long location) {
    return files.get(ids.path(RowLocation.fileId(location)));
  }

  /** The tracked data file at {@code path}; null when the table's snapshot has none there. */
  TrackedFile file(String path) {
    return files.get(path);
  }

  /** The key columns with their types, in key order. */
  StructType keySchema() {
    return keySchema;
  }

  /** The id of the snapshot the index holds, null for an empty table. */
  Long snapshotId() {
    return snapshotId;
  }

  /**
   * The live rows of the table as the index holds them: where each key's are, and, per data file,
   * the delete files that apply to it (sorted locations joined by commas); what a change set
   * decided from them checks ({@link io.mergesink.core.changes.ReadSet}).
   */
  ReadSet.Rows rows() {
    return new ReadSet.Rows() {
      @Override
      public Set<RowPosition> positions(Row key) {
        long location = index.lookup(key);
        if (location == KeyIndex.NO_LOCATION) {
          return Set.of();
        }
        Set<RowPosition> positions = new HashSet<>();
        for (long each : location == KeyIndex.MULTIPLE_LOCATIONS ? index.locations(key) : new long[] {location}) {
          positions.add(new RowPosition(ids.path(RowLocation.fileId(each)), RowLocation.rowIndex(each)));
        }
        return positions;
      }

      @Override
      public Map<String, String> filesInScope() {
        Map<String, String> scope = new TreeMap<>();
        files.forEach((path, tracked) -> scope.put(path,
            String.join(",", tracked.positionDeletes().stream().map(DeleteFile::location).sorted().toList())));
        return scope;
      }
    };
  }

  /** Every tracked data file. */
  Iterable<TrackedFile> files() {
    return files.values();
  }

  /** The positions deleted in {@code path} so far, which a new deletion vector of it must include. */
  PositionDeleteIndex deletedPositions(String path) {
    TrackedFile tracked = files.get(path);
    if (tracked == null || tracked.positionDeletes().isEmpty()) {
      return PositionDeleteIndex.empty();
    }
    return new BaseDeleteLoader(delete -> table.io().newInputFile(delete.location()))
        .loadPositionDeletes(tracked.positionDeletes(), path);
  }

  /**
   * Brings the index to {@code target}: the snapshots after the index's own up to it are applied in
   * order; when one cannot be applied file by file, the whole table is read.
   */
  void follow(Snapshot target) {
    Long targetId = target == null ? null : target.snapshotId();
    if (Objects.equals(targetId, snapshotId)) {
      return;
    }
    if (snapshotId == null || target == null || !SnapshotUtil.isAncestorOf(table, targetId, snapshotId)) {
      readAll(target);
      return;
    }
    List<Snapshot> between = reversed(SnapshotUtil.ancestorsBetween(table, targetId, snapshotId));
    if (between.stream().anyMatch(this::addsEqualityDeletes)) {
      readAll(target);
      return;
    }
    Set<String> reread = new LinkedHashSet<>();
    for (Snapshot snapshot : between) {
      if (!apply(snapshot, reread)) {
        readAll(target);
        return;
      }
    }
    for (String path : reread) {
      if (files.containsKey(path)) {
        read(files.get(path));
      }
    }
    snapshotId = targetId;
  }

  /**
   * A commit of this writer landed as {@code committed}, whose parent the index is at: the rows it
   * deleted are dropped from the index, its deletion vectors tracked, and its new files read.
   *
   * @param deleted the (key, location) pairs the commit deleted
   * @param deletes the delete files it added (deletion vectors)
   * @param removedDeletes the delete files they replaced
   * @param added the data files it added, and where each new row went
   * @param addedKeys the keys of the rows written first, in that order: the new live rows (the closed versions of a
   *     history table written after them are live to no key)
   */
  void landed(Snapshot committed, List<Map.Entry<Row, Long>> deleted, List<DeleteFile> deletes, List<DeleteFile> removedDeletes,
      IcebergWriter.NewRows added, Row[] addedKeys) {
    for (Map.Entry<Row, Long> row : deleted) {
      index.remove(row.getKey(), row.getValue());
    }
    for (DeleteFile removed : removedDeletes) {
      untrack(removed);
    }
    for (DeleteFile delete : deletes) {
      track(delete);
    }
    // with row lineage, the committed entries: they carry the first row ids the commit assigned, which rewrites keep
    Iterable<DataFile> landedFiles = TableUtil.supportsRowLineage(table) ? changes(committed).addedDataFiles() : added.files();
    for (DataFile file : landedFiles) {
      files.put(file.location(), new TrackedFile(file, new ArrayList<>()));
    }
    for (int i = 0; i < addedKeys.length; i++) {
      index.put(addedKeys[i], RowLocation.pack(ids.idOf(added.rowFiles()[i]), added.rowPositions()[i]));
    }
    snapshotId = committed.snapshotId();
  }

  /**
   * Applies the files one snapshot added and removed; collects in {@code reread} the files whose
   * deletes changed.
   *
   * @return false when the snapshot cannot be applied file by file (a partition-scoped position delete file)
   */
  private boolean apply(Snapshot snapshot, Set<String> reread) {
    SnapshotChanges changes = changes(snapshot);
    for (DataFile removed : changes.removedDataFiles()) {
      untrackFile(removed.location());
      reread.remove(removed.location());
    }
    for (DataFile added : changes.addedDataFiles()) {
      files.put(added.location(), new TrackedFile(added, new ArrayList<>()));
      reread.add(added.location());
    }
    for (DeleteFile removed : changes.removedDeleteFiles()) {
      if (removed.referencedDataFile() == null) {
        return false;
      }
      untrack(removed);
      reread.add(removed.referencedDataFile());
    }
    for (DeleteFile added : changes.addedDeleteFiles()) {
      if (added.referencedDataFile() == null) {
        return false;
      }
      track(added);
      reread.add(added.referencedDataFile());
    }
    return true;
  }

  private boolean addsEqualityDeletes(Snapshot snapshot) {
    for (DeleteFile added : changes(snapshot).addedDeleteFiles()) {
      if (added.content() == FileContent.EQUALITY_DELETES) {
        return true;
      }
    }
    return false;
  }

  /** The files {@code snapshot} added and removed, its manifests read with the table's partition specs. */
  private SnapshotChanges changes(Snapshot snapshot) {
    return SnapshotChanges.builderFor(table).snapshot(snapshot).build();
  }

  private void track(DeleteFile delete) {
    TrackedFile tracked = files.get(delete.referencedDataFile());
    if (tracked != null) {
      tracked.positionDeletes().add(delete);
    }
  }

  private void untrack(DeleteFile delete) {
    TrackedFile tracked = files.get(delete.referencedDataFile());
    if (tracked != null) {
      tracked.positionDeletes().removeIf(known -> known.location().equals(delete.location()));
    }
  }

  private void untrackFile(String path) {
    if (files.remove(path) != null) {
      int id = ids.find(path);
      if (id >= 0) {
        index.removeFile(id);
        ids.remove(path);
      }
    }
  }

  /** Reads every live row's key of {@code snapshot}, as a scan plans them (equality deletes applied). */
  private void readAll(Snapshot snapshot) {
    index = KeyIndex.create(keySchema);
    files.keySet().forEach(ids::remove);
    files.clear();
    if (snapshot != null) {
      try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        for (FileScanTask task : tasks) {
          List<DeleteFile> positionDeletes = new ArrayList<>();
          task.deletes().stream().filter(delete -> delete.content() == FileContent.POSITION_DELETES).forEach(positionDeletes::add);
          TrackedFile tracked = new TrackedFile(task.file(), positionDeletes);
          files.put(task.file().location(), tracked);
          readKeys(tracked, task.deletes());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    snapshotId = snapshot == null ? null : snapshot.snapshotId();
  }

  /** (Re)reads the keys of one file with its position deletes. */
  private void read(TrackedFile tracked) {
    int id = ids.find(tracked.file().location());
    if (id >= 0) {
      index.removeFile(id);
    }
    readKeys(tracked, tracked.positionDeletes());
  }

  private void readKeys(TrackedFile tracked, List<DeleteFile> deletes) {
    List<String> columns = new ArrayList<>(keyColumns);
    if (currentColumn != null) {
      columns.add(currentColumn);
    }
    DataFileRows.Rows rows = DataFileRows.read(table.io(), table.schema(), tracked.file(), deletes, columns);
    int id = ids.idOf(tracked.file().location());
    int[] ordinals = rows.ordinals();
    try (CloseableIterable<Record> records = rows.records()) {
      for (Record record : records) {
        if (currentColumn != null && !CurrentRowColumn.isCurrent(record.get(ordinals[keyColumns.size()]))) {
          continue; // a closed version: history, which no key finds
        }
        Object[] key = new Object[keyColumns.size()];
        for (int i = 0; i < key.length; i++) {
          key[i] = IcebergRows.fromIceberg(table.schema().findType(keyColumns.get(i)), record.get(ordinals[i]));
        }
        index.put(Row.of(key), RowLocation.pack(id, (Long) record.get(rows.position())));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Snapshot> reversed(Iterable<Snapshot> newestFirst) {
    List<Snapshot> oldestFirst = new ArrayList<>();
    newestFirst.forEach(snapshot -> oldestFirst.add(0, snapshot));
    return oldestFirst;
  }
}
