package io.mergesink.core.datafiles;

import io.mergesink.core.data.Row;
import io.mergesink.core.layout.DataLayout.Partition;
import io.mergesink.core.layout.DataLayout;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.parquet.DataFileWriter;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.parquet.WrittenFile;
import io.mergesink.core.rowtracking.MaterializedColumns;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes logical rows into new data files laid out as the table's {@link DataLayout} says: one open
 * file per partition, in the partition's Hive-style directory, holding the row's data columns under
 * their physical names; a partition's file is closed and a new one started when it reaches the
 * target size. Every row's location (file, row index) is known when it is written, so the key index
 * can point at it without reading the file back.
 *
 * <p>Each file is tagged with the owners of the rows it holds (docs/design.md, "File ownership"): the
 * change set's, and those of every file whose rows were {@linkplain #carryRowsOf carried} into it.
 *
 * <p>Each open file buffers its current row group, so a batch spread over many partitions holds
 * that many buffers. Not thread-safe. {@link #finish()} closes the open files; {@link #discard()}
 * deletes every file written so far (the commit they were for will not happen).
 */
public final class DataFileRoller {
  private static final String FILE_PREFIX = "part-";

  private final StartedFiles started;
  private final DataLayout layout;
  /** The table's materialized row tracking columns, which end every data row; null when it has none. */
  private final MaterializedColumns materialized;
  private final StructType fileSchema;
  private final long targetFileSizeBytes;
  private FileOwners owners;
  private final boolean dataChange;
  private final List<AddFile> finished = new ArrayList<>();
  private final Map<Partition, OpenFile> open = new LinkedHashMap<>();
  private OpenFile last;

  DataFileRoller(Storage storage, String tableRoot, DataLayout layout, MaterializedColumns materialized, ParquetWriteOptions parquetOptions,
      long targetFileSizeBytes, FileOwners owners, boolean dataChange) {
    this.started = new StartedFiles(storage, tableRoot, parquetOptions);
    this.layout = layout;
    this.materialized = materialized;
    this.fileSchema = materialized == null ? layout.dataSchema() : materialized.appendTo(layout.dataSchema());
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.owners = owners;
    this.dataChange = dataChange;
  }

  /**
   * Writes logical row {@code row}, a new row, into its partition's file; afterwards
   * {@link #lastPath()} and {@link #lastRowIndex()} say where it went.
   *
   * @throws IllegalArgumentException when its partition value cannot be written
   */
  public void write(Row row) throws IOException {
    write(row, null, null);
  }

  /**
   * {@link #write(Row)} of a row that keeps stable row id {@code rowId} and stable commit version
   * {@code commitVersion} (PROTOCOL.md, "Row Tracking"); a null one gets its new file's default. A
   * table without materialized row tracking columns keeps none: its rows get the new file's.
   */
  public void write(Row row, Long rowId, Long commitVersion) throws IOException {
    Partition partition = layout.partitionOf(row);
    OpenFile file = open.get(partition);
    if (file != null && file.writer.bytesWritten() >= targetFileSizeBytes) {
      close(file);
      file = null;
    }
    if (file == null) {
      file = start(partition);
    }
    Row dataRow = layout.dataRow(row);
    file.writer.write(materialized == null ? dataRow : MaterializedColumns.append(dataRow, rowId, commitVersion));
    file.rows++;
    last = file;
  }

  /**
   * The rows written from now on include rows of {@code source}: the open files and every later one
   * are owned by its owners too (files already closed do not hold them and keep their owners).
   */
  public void carryRowsOf(FileOwners source) {
    owners = owners.union(source);
  }

  /** The table-relative path (as in the log, URI-encoded) of the file the last row went to. */
  public String lastPath() {
    return last.logPath;
  }

  /** The row index of the last row within its file. */
  public long lastRowIndex() {
    return last.rows - 1;
  }

  /** Closes the open files and returns an {@code add} for every file written. */
  public List<AddFile> finish() throws IOException {
    for (OpenFile file : new ArrayList<>(open.values())) {
      close(file);
    }
    return List.copyOf(finished);
  }

  /** Absolute paths of every file started, for cleanup when the commit is abandoned. */
  public List<String> writtenPaths() {
    return started.paths();
  }

  /** Closes and deletes every file written, best effort: they would only be orphans for vacuum. */
  public void discard() {
    started.discard(open.values().stream().map(file -> file.writer).toList());
    open.clear();
  }

  private OpenFile start(Partition partition) throws IOException {
    StartedFiles.StartedFile file = started.start(partition.directory(), FILE_PREFIX, fileSchema, layout.dataSchema());
    OpenFile opened = new OpenFile(partition, file.logPath(), file.writer());
    open.put(partition, opened);
    return opened;
  }

  private void close(OpenFile file) throws IOException {
    open.remove(file.partition);
    WrittenFile written = file.writer.finish();
    finished.add(new AddFile(file.logPath, file.partition.values(), written.sizeBytes(), System.currentTimeMillis(), dataChange,
        written.statsJson(), owners.isAnyone() ? null : owners.tags(), null, null, null));
  }

  /** A file being written for one partition. */
  private static final class OpenFile {
    private final Partition partition;
    private final String logPath;
    private final DataFileWriter writer;
    private long rows;

    OpenFile(Partition partition, String logPath, DataFileWriter writer) {
      this.partition = partition;
      this.logPath = logPath;
      this.writer = writer;
    }
  }
}
