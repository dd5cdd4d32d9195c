package io.mergesink.core.datafiles;

import io.mergesink.core.data.Row;
import io.mergesink.core.datafiles.StartedFiles.StartedFile;
import io.mergesink.core.layout.DataLayout.Partition;
import io.mergesink.core.layout.DataLayout;
import io.mergesink.core.log.AddCDCFile;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.parquet.WrittenFile;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the change data files of one commit (PROTOCOL.md, "Change Data Files"): one file per
 * partition under {@code _change_data/} (in the partition's Hive-style directory inside it), laid
 * out as the table's data files (data columns under their physical names, partition values in the
 * {@code cdc} action) plus a {@code _change_type} STRING column. Not thread-safe; {@link #finish}
 * closes the files, {@link #discard} deletes them.
 */
public final class ChangeDataFiles {
  static final String DIRECTORY = "_change_data";
  static final String CHANGE_TYPE_COLUMN = "_change_type";
  private static final String FILE_PREFIX = "cdc-";

  /** The {@code _change_type} values. */
  public enum ChangeType {
    INSERT("insert"), UPDATE_PREIMAGE("update_preimage"), UPDATE_POSTIMAGE("update_postimage"), DELETE("delete");

    private final String value;

    ChangeType(String value) {
      this.value = value;
    }

    String value() {
      return value;
    }
  }

  private final StartedFiles started;
  private final DataLayout layout;
  private final StructType fileSchema;
  private final Map<Partition, StartedFile> open = new LinkedHashMap<>();

  public ChangeDataFiles(Storage storage, String tableRoot, DataLayout layout, ParquetWriteOptions parquetOptions) {
    this.started = new StartedFiles(storage, tableRoot, parquetOptions);
    this.layout = layout;
    this.fileSchema = layout.dataSchema().add(new StructField(CHANGE_TYPE_COLUMN, PrimitiveType.STRING, true));
  }

  /** Writes logical row {@code row} as a change of {@code type} into its partition's file. */
  public void write(Row row, ChangeType type) throws IOException {
    Partition partition = layout.partitionOf(row);
    StartedFile file = open.get(partition);
    if (file == null) {
      String directory = partition.directory().isEmpty() ? DIRECTORY : DIRECTORY + "/" + partition.directory();
      file = started.start(directory, FILE_PREFIX, fileSchema);
      open.put(partition, file);
    }
    Row data = layout.dataRow(row);
    Object[] values = new Object[data.size() + 1];
    for (int i = 0; i < data.size(); i++) {
      values[i] = data.get(i);
    }
    values[data.size()] = type.value();
    file.writer().write(Row.of(values));
  }

  /** Closes the files and returns a {@code cdc} action for each. */
  public List<AddCDCFile> finish() throws IOException {
    List<AddCDCFile> files = new ArrayList<>(open.size());
    for (Map.Entry<Partition, StartedFile> file : open.entrySet()) {
      WrittenFile written = file.getValue().writer().finish();
      files.add(new AddCDCFile(file.getValue().logPath(), file.getKey().values(), written.sizeBytes(), null));
    }
    open.clear();
    return files;
  }

  /** Absolute paths of every file started, for cleanup when the commit is abandoned. */
  public List<String> writtenPaths() {
    return started.paths();
  }

  /** Closes and deletes every file written, best effort. */
  public void discard() {
    started.discard(open.values().stream().map(StartedFile::writer).toList());
    open.clear();
  }
}
