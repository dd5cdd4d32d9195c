package io.mergesink.core.scan;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Reads the live rows of a snapshot: every live file in turn, projected to the requested
 * columns ({@link LogicalFileReader}: partition values, column mapping, widened types), without
 * the rows its deletion vector marks. Files are opened one at a time; the caller closes the
 * iterator.
 */
public final class TableScan implements CloseableIterator<Row> {
  private final String tableRoot;
  private final LogicalFileReader reader;
  private final Iterator<AddFile> files;
  private final DeletionVectorStore deletionVectors;
  private CloseableIterator<Row> current;
  private Roaring64NavigableMap deleted;
  private long rowIndex;
  private Row next;

  private TableScan(Storage storage, Snapshot snapshot, LogicalFileReader reader, Predicate<AddFile> files) {
    this.tableRoot = snapshot.tableRoot();
    this.reader = reader;
    this.files = snapshot.files().values().stream().filter(files).toList().iterator();
    this.deletionVectors = new DeletionVectorStore(storage);
  }

  /**
   * @param columns the columns to read, in the order wanted; empty for all columns
   * @throws IllegalArgumentException see {@link LogicalFileReader#of}
   */
  public static TableScan of(Storage storage, Snapshot snapshot, List<String> columns) {
    return new TableScan(storage, snapshot, LogicalFileReader.of(storage, snapshot, columns), file -> true);
  }

  /**
   * The live rows {@code reader} reads (a reader of {@code snapshot}) from the files {@code files}
   * accepts: a caller that knows which files cannot hold what it looks for (by their statistics)
   * skips them.
   */
  public static TableScan of(Storage storage, Snapshot snapshot, LogicalFileReader reader, Predicate<AddFile> files) {
    return new TableScan(storage, snapshot, reader, files);
  }

  /** The schema of the rows returned. */
  public StructType schema() {
    return reader.schema();
  }

  @Override
  public boolean hasNext() {
    try {
      while (next == null) {
        if (current != null && current.hasNext()) {
          Row row = current.next();
          if (deleted == null || !deleted.contains(rowIndex)) {
            next = row;
          }
          rowIndex++;
        } else if (!openNextFile()) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row row = next;
    next = null;
    return row;
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }

  private boolean openNextFile() throws IOException {
    close();
    if (!files.hasNext()) {
      return false;
    }
    AddFile file = files.next();
    deleted = file.deletionVector() == null ? null : deletionVectors.read(tableRoot, file.deletionVector());
    current = reader.read(file);
    rowIndex = 0;
    return true;
  }
}
