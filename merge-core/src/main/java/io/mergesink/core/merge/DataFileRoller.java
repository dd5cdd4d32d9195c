package io.mergesink.core.merge;

import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.parquet.DataFileWriter;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.parquet.WrittenFile;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes rows into new data files at the table root, starting a new file whenever the current one
 * reaches the target size. Every row's location (file, row index) is known when it is written, so
 * the key index can point at it without reading the file back.
 *
 * <p>Each file is tagged with the owners of the rows it holds (docs/design.md, "File ownership"): the
 * writer's, and those of every file whose rows were {@linkplain #carryRowsOf carried} into it.
 *
 * <p>Not thread-safe. {@link #finish()} closes the last file; {@link #discard()} deletes every
 * file written so far (the commit they were for will not happen).
 */
final class DataFileRoller {
  private final Storage storage;
  private final String tableRoot;
  private final StructType schema;
  private final ParquetWriteOptions parquetOptions;
  private final long targetFileSizeBytes;
  private FileOwners owners;
  private final boolean dataChange;
  private final List<AddFile> finished = new ArrayList<>();
  private final List<String> writtenPaths = new ArrayList<>();
  private DataFileWriter current;
  private String currentName;
  private long currentRows;

  DataFileRoller(Storage storage, String tableRoot, StructType schema, ParquetWriteOptions parquetOptions,
      long targetFileSizeBytes, FileOwners owners, boolean dataChange) {
    this.storage = storage;
    this.tableRoot = tableRoot;
    this.schema = schema;
    this.parquetOptions = parquetOptions;
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.owners = owners;
    this.dataChange = dataChange;
  }

  /** Writes {@code row}; afterwards {@link #lastPath()} and {@link #lastRowIndex()} say where it went. */
  void write(Row row) throws IOException {
    if (current != null && current.bytesWritten() >= targetFileSizeBytes) {
      closeCurrent();
    }
    if (current == null) {
      currentName = "part-" + UUID.randomUUID() + "." + parquetOptions.compression().toLowerCase(java.util.Locale.ROOT) + ".parquet";
      String path = tableRoot + "/" + currentName;
      writtenPaths.add(path);
      current = DataFileWriter.open(storage, path, schema, parquetOptions);
      currentRows = 0;
    }
    current.write(row);
    currentRows++;
  }

  /**
   * The rows written from now on include rows of {@code source}: the open file and every later one
   * are owned by its owners too (files already closed do not hold them and keep their owners).
   */
  void carryRowsOf(FileOwners source) {
    owners = owners.union(source);
  }

  StructType schema() {
    return schema;
  }

  /** The table-relative path of the file the last row went to. */
  String lastPath() {
    return currentName;
  }

  /** The row index of the last row within its file. */
  long lastRowIndex() {
    return currentRows - 1;
  }

  /** Closes the open file and returns an {@code add} for every file written. */
  List<AddFile> finish() throws IOException {
    closeCurrent();
    return List.copyOf(finished);
  }

  /** Absolute paths of every file started, for cleanup when the commit is abandoned. */
  List<String> writtenPaths() {
    return List.copyOf(writtenPaths);
  }

  /** Closes and deletes every file written, best effort: they would only be orphans for vacuum. */
  void discard() {
    try {
      if (current != null) {
        current.close();
      }
    } catch (IOException | RuntimeException ignored) {
      // the file is deleted below either way
    }
    current = null;
    Cleanup.deleteQuietly(storage, writtenPaths);
  }

  private void closeCurrent() throws IOException {
    if (current == null) {
      return;
    }
    WrittenFile file = current.finish();
    current = null;
    finished.add(new AddFile(currentName, Map.of(), file.sizeBytes(), System.currentTimeMillis(), dataChange, file.statsJson(),
        owners.isAnyone() ? null : owners.tags(), null, null, null));
  }
}
