package io.mergesink.ingest.format.iceberg;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

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
    return read(io, tableSchema, file, deletes, tableSchema.select(columns));
  }

  private static Rows read(FileIO io, Schema tableSchema, DataFile file, List<DeleteFile> deletes, Schema columns) {
    if (file.format() != FileFormat.PARQUET) {
      throw new IllegalArgumentException("data file " + file.location() + " is " + file.format()
          + ": MergeSink reads and writes Parquet data files only");
    }
    Schema requested = TypeUtil.join(columns, new Schema(MetadataColumns.ROW_POSITION));
    Filter filter = new Filter(io, file, deletes, tableSchema, requested);
    Schema read = filter.requiredSchema();
    Map<Integer, Object> constants = new HashMap<>(); // what the row lineage columns inherit when a file does not store them
    constants.put(MetadataColumns.ROW_ID.fieldId(), file.firstRowId());
    constants.put(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId(), file.dataSequenceNumber());
    CloseableIterable<Record> records = Parquet.read(io.newInputFile(file.location())).project(read)
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(read, fileSchema, constants)).build();
    List<String> names = columns.columns().stream().map(Types.NestedField::name).toList();
    int[] ordinals = names.stream().mapToInt(column -> read.columns().indexOf(read.findField(column))).toArray();
    int position = read.columns().indexOf(read.findField(MetadataColumns.ROW_POSITION.fieldId()));
    return new Rows(filter.filter(records), read, ordinals, position);
  }

  /**
   * The schema of rewritten rows ({@link #rewrite}): the table's columns, and in tables with row
   * lineage (format version 3) its two columns, so that a row keeps its id and the sequence number
   * of its last update when a compaction or a copy-on-write commit moves it to a new file.
   */
  static Schema rewriteSchema(Table table) {
    return TableUtil.supportsRowLineage(table) ? MetadataColumns.schemaWithRowLineage(table.schema()) : table.schema();
  }

  /** The rows of {@code file} left by {@code deletes}, as {@link Rows#rewritten} turns them into rows of {@link #rewriteSchema}. */
  static Rows rewrite(Table table, DataFile file, List<DeleteFile> deletes) {
    return read(table.io(), table.schema(), file, deletes, rewriteSchema(table));
  }

  /**
   * Live rows of one file: {@code records} in the schema {@code read}, whose requested columns are at
   * {@code ordinals} and whose position is at {@code position}.
   */
  record Rows(CloseableIterable<Record> records, Schema read, int[] ordinals, int position) {
    /** The position of {@code record} in its file. */
    long position(Record record) {
      return (Long) record.get(position);
    }

    /** {@code record}'s requested columns, in order, in a record of {@code schema}. */
    Record rewritten(Record record, Schema schema) {
      Record rewritten = GenericRecord.create(schema);
      for (int i = 0; i < ordinals.length; i++) {
        rewritten.set(i, record.get(ordinals[i]));
      }
      return rewritten;
    }
  }

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
