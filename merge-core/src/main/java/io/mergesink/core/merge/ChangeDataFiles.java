package io.mergesink.core.merge;

import io.mergesink.core.data.Row;
import io.mergesink.core.layout.DataLayout;
import io.mergesink.core.layout.DataLayout.Partition;
import io.mergesink.core.log.AddCDCFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.parquet.DataFileWriter;
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
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Writes the change data files of one commit (PROTOCOL.md, "Change Data Files"): one file per
 * partition under {@code _change_data/} (in the partition's Hive-style directory inside it), laid
 * out as the table's data files (data columns under their physical names, partition values in the
 * {@code cdc} action) plus a {@code _change_type} STRING column. Not thread-safe; {@link #finish}
 * closes the files, {@link #discard} deletes them.
 */
final class ChangeDataFiles {
  static final String DIRECTORY = "_change_data";
  static final String CHANGE_TYPE_COLUMN = "_change_type";
  private static final String FILE_PREFIX = "cdc-";
  private static final String FILE_SUFFIX = ".parquet";

  /** The {@code _change_type} values. */
  enum ChangeType {
    INSERT("insert"), UPDATE_PREIMAGE("update_preimage"), UPDATE_POSTIMAGE("update_postimage"), DELETE("delete");

    private final String value;

    ChangeType(String value) {
      this.value = value;
    }

    String value() {
      return value;
    }
  }

  private final Storage storage;
  private final String tableRoot;
  private final DataLayout layout;
  private final StructType fileSchema;
  private final ParquetWriteOptions parquetOptions;
  private final Map<Partition, OpenFile> open = new LinkedHashMap<>();
  private final List<String> writtenPaths = new ArrayList<>();

  ChangeDataFiles(Storage storage, String tableRoot, DataLayout layout, ParquetWriteOptions parquetOptions) {
    this.storage = storage;
    this.tableRoot = tableRoot;
    this.layout = layout;
    this.fileSchema = layout.dataSchema().add(new StructField(CHANGE_TYPE_COLUMN, PrimitiveType.STRING, true));
    this.parquetOptions = parquetOptions;
  }

  /** Writes logical row {@code row} as a change of {@code type} into its partition's file. */
  void write(Row row, ChangeType type) throws IOException {
    Partition partition = layout.partitionOf(row);
    OpenFile file = open.get(partition);
    if (file == null) {
      file = start(partition);
    }
    Row data = layout.dataRow(row);
    Object[] values = new Object[data.size() + 1];
    for (int i = 0; i < data.size(); i++) {
      values[i] = data.get(i);
    }
    values[data.size()] = type.value();
    file.writer.write(Row.of(values));
  }

  /** Closes the files and returns a {@code cdc} action for each. */
  List<AddCDCFile> finish() throws IOException {
    List<AddCDCFile> files = new ArrayList<>(open.size());
    for (OpenFile file : open.values()) {
      WrittenFile written = file.writer.finish();
      files.add(new AddCDCFile(file.logPath, file.partition.values(), written.sizeBytes(), null));
    }
    open.clear();
    return files;
  }

  /** Absolute paths of every file started, for cleanup when the commit is abandoned. */
  List<String> writtenPaths() {
    return List.copyOf(writtenPaths);
  }

  /** Closes and deletes every file written, best effort. */
  void discard() {
    for (OpenFile file : open.values()) {
      try {
        file.writer.close();
      } catch (IOException | RuntimeException ignored) {
        // the file is deleted below either way
      }
    }
    open.clear();
    Cleanup.deleteQuietly(storage, writtenPaths);
  }

  private OpenFile start(Partition partition) throws IOException {
    String name = FILE_PREFIX + UUID.randomUUID() + "." + parquetOptions.compression().toLowerCase(Locale.ROOT) + FILE_SUFFIX;
    String relative = DIRECTORY + "/" + (partition.directory().isEmpty() ? name : partition.directory() + "/" + name);
    String path = tableRoot + "/" + relative;
    writtenPaths.add(path);
    OpenFile file = new OpenFile(partition, LogPaths.encode(relative), DataFileWriter.open(storage, path, fileSchema, parquetOptions));
    open.put(partition, file);
    return file;
  }

  private record OpenFile(Partition partition, String logPath, DataFileWriter writer) {}
}
