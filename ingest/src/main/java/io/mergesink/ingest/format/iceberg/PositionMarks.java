package io.mergesink.ingest.format.iceberg;

import io.mergesink.ingest.format.iceberg.IcebergKeyIndex.TrackedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * The rows one commit deletes, by position (docs/iceberg.md, "Deletes"). Merge-on-read writes them as
 * the table's format version requires: in v3 one deletion vector per data file (a Puffin
 * {@code deletion-vector-v1} blob) merged with the file's previous one, which the commit then
 * replaces; in v2 one position delete file per data file. Never equality deletes. Copy-on-write
 * rewrites each marked file without them ({@link #rewrite}).
 */
final class PositionMarks {
  private final Table table;
  private final IcebergKeyIndex index;
  private final Map<String, TreeSet<Long>> positions = new TreeMap<>();
  private final Map<String, TrackedFile> files = new TreeMap<>();

  PositionMarks(Table table, IcebergKeyIndex index) {
    this.table = table;
    this.index = index;
  }

  void mark(TrackedFile file, long position) {
    files.putIfAbsent(file.file().location(), file);
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
        DataFile file = files.get(path).file();
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
      DataFile file = files.get(marked.getKey()).file();
      PartitionSpec spec = table.specs().get(file.specId());
      PositionDeleteWriter<Record> writer = writers.newPositionDeleteWriter(newFile(outputs, spec, file.partition()), spec,
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

  /**
   * The marked files rewritten without their marked rows and without the rows their deletes hide
   * (copy-on-write), in the file's spec and partition; the rows kept keep their row lineage.
   *
   * @param removed the marked data files
   * @param added their rewrites; none for a file all of whose rows are gone
   * @param removedDeletes the delete files that apply to a removed file only
   */
  record Rewrite(List<DataFile> removed, List<DataFile> added, List<DeleteFile> removedDeletes) {
    static final Rewrite NONE = new Rewrite(List.of(), List.of(), List.of());
  }

  /** Rewrites the marked files; the caller removes the new files when the commit does not land. */
  Rewrite rewrite() throws IOException {
    if (files.isEmpty()) {
      return Rewrite.NONE;
    }
    Schema schema = DataFileRows.rewriteSchema(table);
    GenericFileWriterFactory writers = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET)
        .dataSchema(schema).build();
    OutputFileFactory outputs = OutputFileFactory.builderFor(table, 0, 0).format(FileFormat.PARQUET)
        .operationId(UUID.randomUUID().toString()).build();
    List<DataFile> removed = new ArrayList<>();
    List<DataFile> added = new ArrayList<>();
    List<DeleteFile> removedDeletes = new ArrayList<>();
    try {
      for (TrackedFile tracked : files.values()) {
        DataFile file = tracked.file();
        removed.add(file);
        tracked.positionDeletes().stream().filter(delete -> file.location().equals(delete.referencedDataFile()))
            .forEach(removedDeletes::add);
        rewrite(tracked, positions.get(file.location()), schema, writers, outputs).ifPresent(added::add);
      }
    } catch (IOException | RuntimeException e) {
      added.forEach(file -> table.io().deleteFile(file.location()));
      throw e;
    }
    return new Rewrite(removed, added, removedDeletes);
  }

  private Optional<DataFile> rewrite(TrackedFile tracked, TreeSet<Long> marked, Schema schema, GenericFileWriterFactory writers,
      OutputFileFactory outputs) throws IOException {
    DataFile file = tracked.file();
    PartitionSpec spec = table.specs().get(file.specId());
    DataFileRows.Rows rows = DataFileRows.rewrite(table, file, tracked.positionDeletes());
    DataWriter<Record> writer = null;
    try (CloseableIterable<Record> records = rows.records()) {
      for (Record record : records) {
        if (marked.contains(rows.position(record))) {
          continue;
        }
        if (writer == null) {
          writer = writers.newDataWriter(newFile(outputs, spec, file.partition()), spec, file.partition());
        }
        writer.write(rows.rewritten(record, schema));
      }
    } catch (UncheckedIOException e) {
      abandon(writer);
      throw e.getCause();
    } catch (IOException | RuntimeException e) {
      abandon(writer);
      throw e;
    }
    if (writer == null) {
      return Optional.empty();
    }
    writer.close();
    return Optional.of(writer.toDataFile());
  }

  /** Closes {@code writer} (if any) of a rewrite that failed and removes its file. */
  private void abandon(DataWriter<Record> writer) throws IOException {
    if (writer != null) {
      writer.close();
      table.io().deleteFile(writer.toDataFile().location());
    }
  }

  /**
   * A new file in {@code partition} of {@code spec}; directly under the data location when the spec
   * is unpartitioned, as Iceberg's own writers place it (a partition path of an unpartitioned spec is
   * empty and would put {@code //} into the file's key on an object store).
   */
  private static EncryptedOutputFile newFile(OutputFileFactory outputs, PartitionSpec spec, StructLike partition) {
    return spec.isUnpartitioned() ? outputs.newOutputFile() : outputs.newOutputFile(spec, partition);
  }
}
