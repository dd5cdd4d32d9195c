package io.mergesink.core.maintenance;

import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.parquet.DataFileWriter;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.parquet.WrittenFile;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Writes the rows of one bin into one new file in the bin's directory. A bin is planned to fit the
 * target size, so its file does too, up to the error of the live-size estimate; never splitting a
 * bin guarantees that every run turns several files into one, so repeated runs converge instead of
 * re-packing their own output. Outputs are {@code add}s with {@code dataChange=false} and the bin's
 * partition values and tags.
 *
 * <p>Not thread-safe. {@link #finish()} closes the last file; after a failure or an abandoned
 * commit the caller deletes {@link #writtenPaths()} (a crash leaves them to vacuum).
 */
final class BinWriter {
  private static final String FILE_PREFIX = "part-";
  private static final String FILE_SUFFIX = ".parquet";

  private final Storage storage;
  private final String tableRoot;
  private final String relativeDirectory;
  private final StructType schema;
  private final StructType statsSchema;
  private final ParquetWriteOptions parquet;
  private final CompactionBin bin;
  private final List<AddFile> finished = new ArrayList<>();
  private final List<String> writtenPaths = new ArrayList<>();
  private DataFileWriter current;
  private String currentRelativePath;

  /**
   * @param relativeDirectory the decoded directory of the outputs relative to the table root, ""
   *     for the root (partitioned tables keep their partition directory)
   * @param schema the schema of the rows written, {@code statsSchema} followed by any hidden columns
   * @param statsSchema the table's data columns, which get statistics
   */
  BinWriter(Storage storage, String tableRoot, String relativeDirectory, StructType schema, StructType statsSchema,
      ParquetWriteOptions parquet, CompactionBin bin) {
    this.storage = storage;
    this.tableRoot = tableRoot;
    this.relativeDirectory = relativeDirectory;
    this.schema = schema;
    this.statsSchema = statsSchema;
    this.parquet = parquet;
    this.bin = bin;
  }

  /** The schema of the rows written. */
  StructType schema() {
    return schema;
  }

  void write(Row row) throws IOException {
    if (current == null) {
      String name = FILE_PREFIX + UUID.randomUUID() + "." + parquet.compression().toLowerCase(Locale.ROOT) + FILE_SUFFIX;
      currentRelativePath = relativeDirectory.isEmpty() ? name : relativeDirectory + "/" + name;
      String path = tableRoot + "/" + currentRelativePath;
      writtenPaths.add(path);
      current = DataFileWriter.open(storage, path, schema, statsSchema, parquet);
    }
    current.write(row);
  }

  /** Closes the open file; returns one {@code add} per file written (none when no row was written). */
  List<AddFile> finish() throws IOException {
    closeCurrent();
    return List.copyOf(finished);
  }

  /** Absolute paths of every file started. */
  List<String> writtenPaths() {
    return List.copyOf(writtenPaths);
  }

  /** Closes (and so deletes) a file left open by a failure. */
  void abort() {
    if (current != null) {
      try {
        current.close();
      } catch (IOException | RuntimeException ignored) {
        // the caller deletes every written path anyway
      }
      current = null;
    }
  }

  private void closeCurrent() throws IOException {
    if (current == null) {
      return;
    }
    WrittenFile file = current.finish();
    current = null;
    Map<String, String> tags = bin.tags().isEmpty() ? null : bin.tags();
    finished.add(new AddFile(LogPaths.encode(currentRelativePath), bin.partitionValues(), file.sizeBytes(), System.currentTimeMillis(),
        false, file.statsJson(), tags, null, null, null));
  }
}
