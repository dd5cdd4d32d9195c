package io.mergesink.ingest.format.iceberg;

import java.util.List;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.TypeUtil;

/**
 * The live rows of one data file, read with Iceberg's Parquet reader and its delete filter: the
 * given position deletes (deletion vectors or position delete files) and equality deletes are
 * applied, and each row carries its position in the file ({@link MetadataColumns#ROW_POSITION}),
 * which deletion vectors mark.
 */
final class DataFileRows {
  private DataFileRows() {}

  /**
   * The rows of {@code file} left by {@code deletes}, with the columns of {@code columns} (of
   * {@code tableSchema}) and then the row position; the caller closes them.
   *
   * @throws IllegalArgumentException the file is not Parquet
   */
  static Rows read(FileIO io, Schema tableSchema, DataFile file, List<DeleteFile> deletes, List<String> columns) {
    if (file.format() != FileFormat.PARQUET) {
      throw new IllegalArgumentException("data file " + file.location() + " is " + file.format()
          + ": MergeSink reads and writes Parquet data files only");
    }
    Schema requested = TypeUtil.join(tableSchema.select(columns), new Schema(MetadataColumns.ROW_POSITION));
    Filter filter = new Filter(io, file, deletes, tableSchema, requested);
    Schema read = filter.requiredSchema();
    CloseableIterable<Record> records = Parquet.read(io.newInputFile(file.location())).project(read)
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(read, fileSchema)).build();
    int[] ordinals = columns.stream().mapToInt(column -> read.columns().indexOf(read.findField(column))).toArray();
    int position = read.columns().indexOf(read.findField(MetadataColumns.ROW_POSITION.fieldId()));
    return new Rows(filter.filter(records), read, ordinals, position);
  }

  /**
   * Live rows of one file: {@code records} in the schema {@code read}, whose requested columns are at
   * {@code ordinals} and whose position is at {@code position}.
   */
  record Rows(CloseableIterable<Record> records, Schema read, int[] ordinals, int position) {}

  /** Iceberg's generic delete filter over a file that is not part of a scan task. */
  private static final class Filter extends DeleteFilter<Record> {
    private final FileIO io;
    private final InternalRecordWrapper asStructLike;

    Filter(FileIO io, ContentFile<?> file, List<DeleteFile> deletes, Schema tableSchema, Schema requested) {
      super(file.location(), deletes, tableSchema, requested);
      this.io = io;
      this.asStructLike = new InternalRecordWrapper(requiredSchema().asStruct());
    }

    @Override
    protected StructLike asStructLike(Record record) {
      return asStructLike.wrap(record);
    }

    @Override
    protected InputFile getInputFile(String location) {
      return io.newInputFile(location);
    }
  }
}
