package io.mergesink.core.datafiles;

import io.mergesink.core.log.LogPaths;
import io.mergesink.core.parquet.DataFileWriter;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The Parquet files one commit starts in a table, data files and change data files alike: each
 * gets a new unique name, and every one started is deleted again if the commit is abandoned (they
 * would only be orphans for vacuum). Not thread-safe.
 */
final class StartedFiles {
  private static final String FILE_SUFFIX = ".parquet";

  private final Storage storage;
  private final String tableRoot;
  private final ParquetWriteOptions parquetOptions;
  private final List<String> paths = new ArrayList<>();

  StartedFiles(Storage storage, String tableRoot, ParquetWriteOptions parquetOptions) {
    this.storage = storage;
    this.tableRoot = tableRoot;
    this.parquetOptions = parquetOptions;
  }

  /** A file just opened: its path as the log names it (table-relative, URI-encoded), and its writer. */
  record StartedFile(String logPath, DataFileWriter writer) {}

  /**
   * Opens a new file {@code <prefix><uuid>.<codec>.parquet} of {@code schema} in {@code directory}
   * ({@code a/b=1}, relative to the table root; empty for the root itself).
   */
  StartedFile start(String directory, String prefix, StructType schema) throws IOException {
    return start(directory, prefix, schema, schema);
  }

  /** {@link #start(String, String, StructType)} with statistics for {@code statsSchema}, a prefix of {@code schema}, only. */
  StartedFile start(String directory, String prefix, StructType schema, StructType statsSchema) throws IOException {
    String name = prefix + UUID.randomUUID() + "." + parquetOptions.compression().toLowerCase(Locale.ROOT) + FILE_SUFFIX;
    String relative = directory.isEmpty() ? name : directory + "/" + name;
    String path = tableRoot + "/" + relative;
    paths.add(path);
    return new StartedFile(LogPaths.encode(relative), DataFileWriter.open(storage, path, schema, statsSchema, parquetOptions));
  }

  /** Absolute paths of every file started, for cleanup when the commit is abandoned. */
  List<String> paths() {
    return List.copyOf(paths);
  }

  /** Closes {@code unfinished} and deletes every file started, best effort. */
  void discard(Collection<DataFileWriter> unfinished) {
    for (DataFileWriter writer : unfinished) {
      try {
        writer.close();
      } catch (IOException | RuntimeException ignored) {
        // the file is deleted below either way
      }
    }
    Cleanup.deleteQuietly(storage, paths);
  }
}
