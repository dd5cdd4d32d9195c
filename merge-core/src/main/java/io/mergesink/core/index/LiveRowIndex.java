package io.mergesink.core.index;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.ownership.OwnerScope;
import io.mergesink.core.parquet.LongColumnReader;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The key index of the live rows of a table's files in scope, kept in step with snapshots.
 *
 * <p>Two ways keep it current: {@link #apply(IndexDelta)} records what this writer's own commit
 * changed, without reading anything back; {@link #sync(Snapshot)} then reconciles with a snapshot,
 * reading the key columns only of files that appeared or changed through other writers (a
 * compaction, another task, another tool). Single-threaded.
 *
 * <p>Which files are in scope is decided per snapshot ({@link OwnerScope}): a table property may
 * widen it, and a sync then indexes the files that came into scope.
 *
 * <p>In a table that names a {@link CurrentRowColumn} (a history table), only current rows are
 * live: the index reads that column with the key and skips the rows where it is false.
 */
public final class LiveRowIndex {
  private static final String NO_DV = "";
  private final Storage storage;
  private final String tableRoot;
  private final List<String> keyColumns;
  private final OwnerScope scope;
  /** The key columns' types as of the last sync; the index starts over when a type widening changed them. */
  private StructType keySchema;
  /** Reads the key columns of a file of the last synced snapshot (partition values, physical names, widened types). */
  private LogicalFileReader keyReader;
  /** The current-row column as of the last sync, if the table has one: {@link #keyReader} reads it after the key. */
  private Optional<String> currentColumn = Optional.empty();
  private KeyIndex keys;
  private FileRegistry files = new FileRegistry();
  /** Files whose live rows are indexed, with the id of the DV they were indexed under. */
  private final Map<String, String> indexedFiles = new HashMap<>();
  private final DeletionVectorStore deletionVectors;

  /**
   * An empty index; the first {@link #sync} fills it.
   *
   * @param keyColumns the primary key columns, in key order
   */
  public LiveRowIndex(Storage storage, String tableRoot, List<String> keyColumns, OwnerScope scope) {
    this.storage = storage;
    this.tableRoot = tableRoot;
    this.keyColumns = List.copyOf(keyColumns);
    this.scope = scope;
    this.deletionVectors = new DeletionVectorStore(storage);
  }

  /**
   * Brings the index in line with {@code snapshot}: drops vanished, re-marked or no longer scoped
   * files, indexes the files in scope it lacks. When the key columns' types changed (a type
   * widening), it starts over: keys of the new type are other keys; so it does when the table's
   * current-row column changed.
   */
  public void sync(Snapshot snapshot) throws IOException {
    StructType keyTypes = snapshot.schema().select(keyColumns);
    Optional<String> flag = CurrentRowColumn.of(snapshot.metadata().configuration());
    if (keySchema == null || !types(keySchema).equals(types(keyTypes)) || !flag.equals(currentColumn)) {
      currentColumn = flag;
      keySchema = keyTypes;
      keys = KeyIndex.create(keyTypes);
      files = new FileRegistry();
      indexedFiles.clear();
    }
    List<String> read = new ArrayList<>(keyColumns);
    currentColumn.ifPresent(read::add);
    keyReader = LogicalFileReader.of(storage, snapshot, read);
    Map<String, AddFile> live = snapshot.files();
    Predicate<AddFile> inScope = scope.files(snapshot);
    for (Map.Entry<String, String> indexed : new ArrayList<>(indexedFiles.entrySet())) {
      AddFile current = live.get(indexed.getKey());
      if (current == null || !dvId(current).equals(indexed.getValue()) || !inScope.test(current)) {
        drop(indexed.getKey());
      }
    }
    for (AddFile file : live.values()) {
      if (!indexedFiles.containsKey(file.path()) && inScope.test(file)) {
        index(file);
      }
    }
  }

  /** The files of {@code snapshot} this index covers. */
  public Predicate<AddFile> scope(Snapshot snapshot) {
    return scope.files(snapshot);
  }

  /** The current-row column of the table as of the last {@link #sync}, if it has one (a history table). */
  public Optional<String> currentColumn() {
    return currentColumn;
  }

  /** The key columns' types, as of the last {@link #sync}. */
  public StructType keySchema() {
    return keySchema;
  }

  /** Records the effect of a commit this writer made; call after it succeeded and before the next {@link #sync}. */
  public void apply(IndexDelta delta) {
    if (delta.replacesAll) {
      keys = KeyIndex.create(keySchema);
      files = new FileRegistry();
      indexedFiles.clear();
    }
    for (int i = 0; i < delta.removedKeys.size(); i++) {
      keys.remove(delta.removedKeys.get(i), delta.removedLocations.getLong(i));
    }
    long[] locations = new long[delta.addedKeys.size()];
    // the rows of one new file come one after the other: look its id up once
    String lastPath = null;
    int lastFileId = -1;
    for (int i = 0; i < locations.length; i++) {
      String path = delta.addedPaths.get(i);
      if (!path.equals(lastPath)) {
        lastPath = path;
        lastFileId = files.idOf(path);
      }
      locations[i] = RowLocation.pack(lastFileId, delta.addedRowIndexes.getLong(i));
    }
    keys.putAll(delta.addedKeys, delta.replacedLocations.toLongArray(), locations);
    delta.fileStates.forEach((path, file) -> {
      if (file == null) {
        files.remove(path);
        indexedFiles.remove(path);
      } else {
        indexedFiles.put(path, dvId(file));
      }
    });
  }

  /**
   * For each key, the location of its one live row, {@link KeyIndex#NO_LOCATION}, or
   * {@link KeyIndex#MULTIPLE_LOCATIONS} (then {@link #locations} lists them), with
   * {@link KeyIndex#lookupAll}.
   */
  public long[] lookup(Row[] keysToFind) {
    return keys.lookupAll(Arrays.asList(keysToFind));
  }

  /** All indexed locations of the live rows with key {@code key}, in no particular order. */
  public long[] locations(Row key) {
    return keys.locations(key);
  }

  /** One indexed location of a live row with key {@code key}, or {@link KeyIndex#NO_LOCATION}. */
  public long anyLocation(Row key) {
    long location = keys.lookup(key);
    return location == KeyIndex.MULTIPLE_LOCATIONS ? keys.locations(key)[0] : location;
  }

  /** The location of row {@code rowIndex} of the indexed file {@code path}. */
  public long location(String path, long rowIndex) {
    return RowLocation.pack(files.idOf(path), rowIndex);
  }

  /** The table-relative path of the file a location points into. */
  public String path(long location) {
    return files.path(RowLocation.fileId(location));
  }

  public long size() {
    return keys.size();
  }

  public long estimatedHeapBytes() {
    return keys.estimatedHeapBytes();
  }

  /**
   * Whether {@code file} (of the snapshot last synced, or one added since without a schema change)
   * holds a live row of one of {@code wanted}, the keys a plan looked up.
   */
  public boolean holdsAny(AddFile file, KeySet wanted) throws IOException {
    boolean[] found = {false};
    forEachLiveKey(file, new LiveKeyVisitor() {
      @Override
      public void visitLong(long key, long rowIndex) {
        found[0] |= wanted.containsLong(key);
      }

      @Override
      public void visit(Row key, long rowIndex) {
        found[0] |= wanted.contains(key);
      }
    });
    return found[0];
  }

  private void index(AddFile file) throws IOException {
    int fileId = files.idOf(file.path());
    forEachLiveKey(file, new LiveKeyVisitor() {
      @Override
      public void visitLong(long key, long rowIndex) {
        keys.putLong(key, RowLocation.pack(fileId, rowIndex));
      }

      @Override
      public void visit(Row key, long rowIndex) {
        keys.put(key, RowLocation.pack(fileId, rowIndex));
      }
    });
    indexedFiles.put(file.path(), dvId(file));
  }

  /** Receives the keys of a file's live rows: single long-like keys as their long, others as key rows. */
  private interface LiveKeyVisitor {
    void visitLong(long key, long rowIndex);

    void visit(Row key, long rowIndex);
  }

  /** Calls {@code visitor} with the key of every live row of {@code file}: not deleted, and current in a history table. */
  private void forEachLiveKey(AddFile file, LiveKeyVisitor visitor) throws IOException {
    Roaring64NavigableMap deleted = file.deletionVector() == null
        ? new Roaring64NavigableMap()
        : deletionVectors.read(tableRoot, file.deletionVector());
    StructField longKey = keys.isLongKeyed() && currentColumn.isEmpty() ? keyReader.dataField(0) : null;
    if (longKey != null && LongColumnReader.read(storage, LogPaths.resolve(tableRoot, file.path()), longKey, keyReader.match(),
        (rowIndex, key) -> {
          if (!deleted.contains(rowIndex)) {
            visitor.visitLong(key, rowIndex);
          }
        })) {
      return;
    }
    int keySize = keyColumns.size();
    int[] keyOrdinals = IntStream.range(0, keySize).toArray();
    try (CloseableIterator<Row> rows = keyReader.read(file)) {
      long rowIndex = 0;
      while (rows.hasNext()) {
        Row row = rows.next();
        boolean live = !deleted.contains(rowIndex) && (currentColumn.isEmpty() || CurrentRowColumn.isCurrent(row.get(keySize)));
        if (live) {
          visitor.visit(currentColumn.isEmpty() ? row : row.project(keyOrdinals), rowIndex);
        }
        rowIndex++;
      }
    }
  }

  private void drop(String path) {
    keys.removeFile(files.idOf(path));
    files.remove(path);
    indexedFiles.remove(path);
  }

  private static List<DataType> types(StructType schema) {
    return schema.fields().stream().map(StructField::type).toList();
  }

  private static String dvId(AddFile file) {
    DeletionVectorDescriptor dv = file.deletionVector();
    return dv == null ? NO_DV : dv.uniqueId();
  }

  /** Index changes of one commit, applied together once the commit has succeeded. */
  public static final class IndexDelta {
    private final boolean replacesAll;
    private final ObjectArrayList<Row> removedKeys = new ObjectArrayList<>();
    private final LongArrayList removedLocations = new LongArrayList();
    private final ObjectArrayList<Row> addedKeys;
    private final LongArrayList replacedLocations;
    private final ObjectArrayList<String> addedPaths;
    private final LongArrayList addedRowIndexes;
    private final Map<String, AddFile> fileStates = new HashMap<>();

    /** A delta on top of the current index. */
    public IndexDelta() {
      this(false, 0);
    }

    /** A delta on top of the current index that will add about {@code expectedAddedRows} rows (lists sized once). */
    public IndexDelta(int expectedAddedRows) {
      this(false, expectedAddedRows);
    }

    private IndexDelta(boolean replacesAll, int expectedAddedRows) {
      this.replacesAll = replacesAll;
      this.addedKeys = new ObjectArrayList<>(expectedAddedRows);
      this.replacedLocations = new LongArrayList(expectedAddedRows);
      this.addedPaths = new ObjectArrayList<>(expectedAddedRows);
      this.addedRowIndexes = new LongArrayList(expectedAddedRows);
    }

    /** A delta that starts from an empty index: every file of the table was removed (a truncate). */
    public static IndexDelta replacingAll() {
      return new IndexDelta(true, 0);
    }

    /** The live row of {@code key} at {@code location} is gone (marked deleted or rewritten). */
    public void removeRow(Row key, long location) {
      removedKeys.add(key);
      removedLocations.add(location);
    }

    /** A new live row of {@code key} at row {@code rowIndex} of the table-relative file {@code path}. */
    public void addRow(Row key, String path, long rowIndex) {
      replaceRow(key, KeyIndex.NO_LOCATION, path, rowIndex);
    }

    /**
     * A new live row of {@code key} at row {@code rowIndex} of the table-relative file {@code path}
     * that takes the place of the key's live row at {@code replacedLocation}: {@link #removeRow}
     * and {@link #addRow} in one, which the index applies with one lookup instead of two.
     * {@link KeyIndex#NO_LOCATION} replaces nothing.
     */
    public void replaceRow(Row key, long replacedLocation, String path, long rowIndex) {
      addedKeys.add(key);
      replacedLocations.add(replacedLocation);
      addedPaths.add(path);
      addedRowIndexes.add(rowIndex);
    }

    /** The file's state after the commit: its new {@code add}, or null when it was removed. */
    public void fileState(String path, AddFile file) {
      fileStates.put(path, file);
    }
  }
}
