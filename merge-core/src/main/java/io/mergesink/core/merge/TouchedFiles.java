package io.mergesink.core.merge;

import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.parquet.DataFileReader;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/** What the merge operations need to know about a live file they touch. */
public final class TouchedFiles {
  private TouchedFiles() {}

  /** The live {@code add} of a file the key index points into. */
  public static AddFile live(Snapshot snapshot, String path) {
    AddFile live = snapshot.files().get(path);
    if (live == null) {
      throw new IllegalStateException("table " + snapshot.tableRoot() + " version " + snapshot.version()
          + ": the key index points into " + path + ", which is not a live file (index out of step with the snapshot)");
    }
    return live;
  }

  /** A copy of the file's current deletion vector, empty when it has none. */
  public static Roaring64NavigableMap deletedRows(DeletionVectorStore store, String tableRoot, AddFile file) throws IOException {
    return file.deletionVector() == null ? new Roaring64NavigableMap() : store.read(tableRoot, file.deletionVector());
  }

  /** Rows physically in the file: from its stats, or its Parquet footer when it has none. */
  static long physicalRows(Storage storage, String tableRoot, AddFile file) throws IOException {
    long numRecords = file.numRecords();
    return numRecords >= 0 ? numRecords : DataFileReader.rowCount(storage, LogPaths.resolve(tableRoot, file.path()));
  }
}
