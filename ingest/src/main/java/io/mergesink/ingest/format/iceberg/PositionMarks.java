package io.mergesink.ingest.format.iceberg;

import io.mergesink.ingest.format.iceberg.IcebergKeyIndex.TrackedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * The rows one commit deletes, by position, written as the table's format version requires
 * (docs/iceberg.md, "Deletes"): in v3 one deletion vector per data file (a Puffin
 * {@code deletion-vector-v1} blob) merged with the file's previous one, which the commit then
 * replaces; in v2 one position delete file per data file. Never equality deletes.
 */
final class PositionMarks {
  private final Table table;
  private final IcebergKeyIndex index;
  private final Map<String, TreeSet<Long>> positions = new TreeMap<>();
  private final Map<String, DataFile> files = new TreeMap<>();

  PositionMarks(Table table, IcebergKeyIndex index) {
    this.table = table;
    this.index = index;
  }

  void mark(TrackedFile file, long position) {
    files.putIfAbsent(file.file().location(), file.file());
    positions.computeIfAbsent(file.file().location(), path -> new TreeSet<>()).add(position);
  }

  boolean isEmpty() {
    return positions.isEmpty();
  }

  long count() {
    return positions.values().stream().mapToLong(TreeSet::size).sum();
  }

  /** The data files marked, which must still exist when the commit lands. */
  List<String> dataFiles() {
    return List.copyOf(positions.keySet());
  }

  /** Writes the marks: the delete files to add, and the ones they replace. */
  DeleteWriteResult write() throws IOException {
    int version = TableUtil.formatVersion(table);
    if (version < 2) {
      throw new IllegalStateException("table " + table.name() + " is Iceberg format version " + version
          + ", which has no row-level deletes: upsert it to format version 2 or 3 (format-version table property)");
    }
    return version >= 3 ? deletionVectors() : positionDeleteFiles();
  }

  private DeleteWriteResult deletionVectors() throws IOException {
    OutputFileFactory puffins = OutputFileFactory.builderFor(table, 0, 0).format(FileFormat.PUFFIN)
        .operationId(UUID.randomUUID().toString()).build();
    BaseDVFileWriter writer = new BaseDVFileWriter(puffins, index::deletedPositions);
    try (writer) {
      positions.forEach((path, rows) -> {
        DataFile file = files.get(path);
        PartitionSpec spec = table.specs().get(file.specId());
        rows.forEach(row -> writer.delete(path, row, spec, file.partition()));
      });
    }
    return writer.result();
  }

  private DeleteWriteResult positionDeleteFiles() throws IOException {
    OutputFileFactory outputs = OutputFileFactory.builderFor(table, 0, 0).format(FileFormat.PARQUET)
        .operationId(UUID.randomUUID().toString()).build();
    GenericFileWriterFactory writers = new GenericFileWriterFactory.Builder(table).deleteFileFormat(FileFormat.PARQUET).build();
    List<DeleteFile> written = new ArrayList<>();
    for (Map.Entry<String, TreeSet<Long>> marked : positions.entrySet()) {
      DataFile file = files.get(marked.getKey());
      PartitionSpec spec = table.specs().get(file.specId());
      PositionDeleteWriter<Record> writer = writers.newPositionDeleteWriter(outputs.newOutputFile(spec, file.partition()), spec,
          file.partition());
      PositionDelete<Record> delete = PositionDelete.create();
      try (writer) {
        for (long row : marked.getValue()) {
          writer.write(delete.set(marked.getKey(), row));
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      written.add(writer.toDeleteFile());
    }
    return new DeleteWriteResult(written);
  }
}
