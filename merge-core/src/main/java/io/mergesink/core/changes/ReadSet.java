package io.mergesink.core.changes;

import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import io.mergesink.core.index.KeyIndex;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.index.RowLocation;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The live rows a change set was decided from ({@link ChangeSet#decidedFrom()}), read through
 * {@link io.mergesink.core.writer.LiveRows} at one version of the table: per key read, where its live rows were
 * (file and row); after a whole-table read, the files in the writer's scope with the deletes that
 * apply to them (a Delta deletion vector's id, an Iceberg table's delete files). A change set that
 * carries one lands only while those rows are where they were (docs/design.md, "History tables"):
 * otherwise a concurrent commit replaced, added or removed one of them, and what the change set
 * closes, deletes or keeps is no longer what the table holds. Each format's writer checks it
 * against the table it plans on: {@link #check(Snapshot, LiveRowIndex)} for Delta,
 * {@link #check(String, long, Rows)} for any.
 */
public final class ReadSet {
  private static final String NO_DV = "";
  private final long version;
  private final Map<Row, Set<RowPosition>> keys;
  /** The files in scope by path, with their DV's id, when every live row was read; else null. */
  private final Map<String, String> filesInScope;

  ReadSet(long version, Map<Row, Set<RowPosition>> keys, Map<String, String> filesInScope) {
    this.version = version;
    this.keys = Map.copyOf(keys);
    this.filesInScope = filesInScope == null ? null : Map.copyOf(filesInScope);
  }

  /** The version of the table the rows were read at. */
  public long version() {
    return version;
  }

  /**
   * Checks that the rows read are where they were in {@code snapshot}, whose state {@code index}
   * holds (synced to it).
   *
   * @throws MovedRowsException a commit since the rows were read changed one of them: nothing is written, decide again
   */
  public void check(Snapshot snapshot, LiveRowIndex index) throws MovedRowsException {
    check(snapshot.tableRoot(), snapshot.version(), new Rows() {
      @Override
      public Set<RowPosition> positions(Row key) {
        return ReadSet.positions(index, key);
      }

      @Override
      public Map<String, String> filesInScope() {
        return ReadSet.filesInScope(snapshot, index.scope(snapshot));
      }
    });
  }

  /**
   * Checks that the rows read are where {@code now}, the table {@code tableRoot} at {@code version},
   * holds them; nothing when the version is the one read.
   *
   * @throws MovedRowsException a commit since the rows were read changed one of them: nothing is written, decide again
   */
  public void check(String tableRoot, long version, Rows now) throws MovedRowsException {
    if (version == this.version) {
      return;
    }
    if (filesInScope != null && !filesInScope.equals(now.filesInScope())) {
      throw new MovedRowsException(tableRoot, "the change set was decided from every live row at version " + this.version
          + ", and the files holding them changed by version " + version);
    }
    for (Map.Entry<Row, Set<RowPosition>> key : keys.entrySet()) {
      if (!key.getValue().equals(now.positions(key.getKey()))) {
        throw new MovedRowsException(tableRoot, "the change set was decided from the live rows of key " + key.getKey()
            + " at version " + this.version + ", and a commit up to version " + version + " changed them");
      }
    }
  }

  /** The live rows of a table as its writer's key index holds them at one version. */
  public interface Rows {
    /** Where the live rows of {@code key} are; empty when it has none. */
    Set<RowPosition> positions(Row key);

    /** The files in the writer's scope by path, each with an id of the deletes that apply to it. */
    Map<String, String> filesInScope();
  }

  /** Where the live rows of {@code key} are, as {@code index} holds them. */
  static Set<RowPosition> positions(LiveRowIndex index, Row key) {
    long location = index.lookup(new Row[] {key})[0];
    if (location == KeyIndex.NO_LOCATION) {
      return Set.of();
    }
    long[] locations = location == KeyIndex.MULTIPLE_LOCATIONS ? index.locations(key) : new long[] {location};
    Set<RowPosition> positions = new HashSet<>();
    for (long each : locations) {
      positions.add(new RowPosition(index.path(each), RowLocation.rowIndex(each)));
    }
    return positions;
  }

  /** The files of {@code snapshot} that {@code scope} takes in, by path, with their DV's id. */
  static Map<String, String> filesInScope(Snapshot snapshot, Predicate<AddFile> scope) {
    Map<String, String> files = new TreeMap<>();
    for (AddFile file : snapshot.files().values()) {
      if (scope.test(file)) {
        DeletionVectorDescriptor dv = file.deletionVector();
        files.put(file.path(), dv == null ? NO_DV : dv.uniqueId());
      }
    }
    return files;
  }

  /** Collects what a {@link io.mergesink.core.writer.LiveRows} view reads, as of the version it reads. */
  public static final class Recorder {
    private final long version;
    private final Map<Row, Set<RowPosition>> keys = new LinkedHashMap<>();
    private Map<String, String> filesInScope;

    public Recorder(long version) {
      this.version = version;
    }

    public void key(LiveRowIndex index, Row key) {
      keys.computeIfAbsent(key, k -> positions(index, k));
    }

    /** Records the live rows of {@code key} as {@code rows} holds them, unless it was read before. */
    public void key(Rows rows, Row key) {
      keys.computeIfAbsent(key, rows::positions);
    }

    public void wholeScope(Snapshot snapshot, LiveRowIndex index) {
      filesInScope = filesInScope(snapshot, index.scope(snapshot));
    }

    /** Records that every live row of the scope {@code rows} holds was read. */
    public void wholeScope(Rows rows) {
      filesInScope = Map.copyOf(rows.filesInScope());
    }

    public ReadSet readSet() {
      return new ReadSet(version, keys, filesInScope);
    }
  }
}
