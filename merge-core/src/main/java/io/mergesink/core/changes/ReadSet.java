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
 * {@link io.mergesink.core.writer.LiveRows} at one snapshot: per key read, where its live rows were; after a whole-table
 * read, the files in the writer's scope with their deletion vectors. A change set that carries
 * one lands only while those rows are where they were (docs/design.md, "History tables"):
 * otherwise a concurrent commit replaced, added or removed one of them, and what the change set
 * closes, deletes or keeps is no longer what the table holds.
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

  /**
   * Checks that the rows read are where they were in {@code snapshot}, whose state {@code index}
   * holds (synced to it).
   *
   * @throws MovedRowsException a commit since the rows were read changed one of them: nothing is written, decide again
   */
  public void check(Snapshot snapshot, LiveRowIndex index) throws MovedRowsException {
    if (snapshot.version() == version) {
      return;
    }
    if (filesInScope != null && !filesInScope.equals(filesInScope(snapshot, index.scope(snapshot)))) {
      throw new MovedRowsException(snapshot.tableRoot(), "the change set was decided from every live row at version " + version
          + ", and the files holding them changed by version " + snapshot.version());
    }
    for (Map.Entry<Row, Set<RowPosition>> key : keys.entrySet()) {
      if (!key.getValue().equals(positions(index, key.getKey()))) {
        throw new MovedRowsException(snapshot.tableRoot(), "the change set was decided from the live rows of key " + key.getKey()
            + " at version " + version + ", and a commit up to version " + snapshot.version() + " changed them");
      }
    }
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

  /** Collects what a {@link io.mergesink.core.writer.LiveRows} view reads. */
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

    public void wholeScope(Snapshot snapshot, LiveRowIndex index) {
      filesInScope = filesInScope(snapshot, index.scope(snapshot));
    }

    public ReadSet readSet() {
      return new ReadSet(version, keys, filesInScope);
    }
  }
}
