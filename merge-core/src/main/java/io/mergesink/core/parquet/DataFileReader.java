package io.mergesink.core.parquet;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

/**
 * Reads Parquet data files of Delta tables, ours and other writers' (Spark's INT96 timestamps,
 * decimals of every physical layout, INT8/INT16, legacy 2-level lists).
 *
 * <p>Rows come in physical order, so the n-th row (from 0) is the row Delta's deletion vectors
 * call row index n. Only the columns of the read schema are read from storage.
 */
public final class DataFileReader {
  private DataFileReader() {}

  /**
   * The rows of the file at {@code path}, projected to {@code readSchema}: a subset of the table's
   * columns matched by name (nested struct fields too); a column the file lacks (added to the table
   * later) reads as null. Values are in the in-memory representation documented on
   * {@link io.mergesink.core.types.DataType}.
   *
   * <p>The caller owns the iterator and must close it.
   *
   * @throws IOException when the file cannot be opened or its footer read
   * @throws IllegalArgumentException when a column of the file cannot be read as the requested type
   */
  public static CloseableIterator<Row> read(Storage storage, String path, StructType readSchema) throws IOException {
    return read(storage, path, readSchema, ColumnMatch.BY_NAME);
  }

  /**
   * {@link #read(Storage, String, StructType)} with the fields of {@code readSchema} (a physical
   * schema: see {@link io.mergesink.core.types.ColumnMapping#physicalSchema}) found as
   * {@code match} says. A value stored as a narrower type than the read type is widened
   * (PROTOCOL.md, "Type Widening").
   */
  public static CloseableIterator<Row> read(Storage storage, String path, StructType readSchema, ColumnMatch match)
      throws IOException {
    ParquetFileReader reader = open(storage, path);
    try {
      MessageType requested = ParquetProjection.clip(readSchema, reader.getFooter().getFileMetaData().getSchema(), match);
      if (requested.getFieldCount() == 0) {
        long rows = reader.getRecordCount();
        reader.close();
        return new NullRows(rows, readSchema.size());
      }
      RowMaterializer materializer = new RowMaterializer(readSchema, requested, match);
      return new ParquetRowIterator(path, reader, requested, materializer);
    } catch (IllegalArgumentException e) {
      reader.close();
      throw new IllegalArgumentException("cannot read data file " + path + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /**
   * The rows at {@code rowIndexes} (ascending, distinct physical positions) of the file at
   * {@code path}, projected as {@link #read(Storage, String, StructType, ColumnMatch)} does; the
   * i-th row is the one at {@code rowIndexes[i]}. Reads only the row groups that hold one of them,
   * each up to its last wanted row, and only the projected columns.
   *
   * @throws IOException when the file cannot be read, or has no row at one of the positions
   * @throws IllegalArgumentException when a column of the file cannot be read as the requested type
   */
  public static Row[] readAt(Storage storage, String path, StructType readSchema, ColumnMatch match, long[] rowIndexes)
      throws IOException {
    Row[] rows = new Row[rowIndexes.length];
    try (ParquetFileReader reader = open(storage, path)) {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      MessageType requested = ParquetProjection.clip(readSchema, fileSchema, match);
      int found = 0;
      long groupStart = 0;
      if (requested.getFieldCount() == 0) {
        groupStart = reader.getRecordCount();
        while (found < rowIndexes.length && rowIndexes[found] < groupStart) {
          rows[found++] = Row.of(new Object[readSchema.size()]);
        }
      } else {
        RowMaterializer materializer = new RowMaterializer(readSchema, requested, match);
        MessageColumnIO columnIO = new ColumnIOFactory(reader.getFooter().getFileMetaData().getCreatedBy())
            .getColumnIO(requested, fileSchema, true);
        reader.setRequestedSchema(requested);
        for (BlockMetaData group : reader.getRowGroups()) {
          if (found == rowIndexes.length) {
            break;
          }
          long groupEnd = groupStart + group.getRowCount();
          if (rowIndexes[found] >= groupEnd) {
            reader.skipNextRowGroup();
          } else {
            RecordReader<Row> records = columnIO.getRecordReader(reader.readNextRowGroup(), materializer);
            for (long row = groupStart; found < rowIndexes.length && rowIndexes[found] < groupEnd; row++) {
              Row value = records.read();
              if (row == rowIndexes[found]) {
                rows[found++] = value;
              }
            }
          }
          groupStart = groupEnd;
        }
      }
      if (found < rowIndexes.length) {
        throw new IOException("data file " + path + " has " + groupStart + " rows, row " + rowIndexes[found] + " was asked for");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot read data file " + path + ": " + e.getMessage(), e);
    } catch (ParquetDecodingException e) {
      throw new IOException("corrupt data file " + path + ": " + e.getMessage(), e);
    }
    return rows;
  }

  /** The number of rows of the file, from its footer. */
  public static long rowCount(Storage storage, String path) throws IOException {
    try (ParquetFileReader reader = open(storage, path)) {
      return reader.getRecordCount();
    }
  }

  static ParquetFileReader open(Storage storage, String path) throws IOException {
    ParquetReadOptions options = HadoopReadOptions.builder(new Configuration(false)).build();
    try {
      return ParquetFileReader.open(storage.parquetInput(path), options);
    } catch (RuntimeException e) {
      throw new IOException("cannot open data file " + path + ": " + e.getMessage(), e);
    }
  }

  /** Rows of nulls, for a projection none of whose columns is in the file. */
  private static final class NullRows implements CloseableIterator<Row> {
    private final int width;
    private long remaining;

    NullRows(long rows, int width) {
      this.remaining = rows;
      this.width = width;
    }

    @Override
    public boolean hasNext() {
      return remaining > 0;
    }

    @Override
    public Row next() {
      if (remaining == 0) {
        throw new NoSuchElementException("no more rows");
      }
      remaining--;
      return Row.of(new Object[width]);
    }

    @Override
    public void close() {
      remaining = 0;
    }
  }
}
