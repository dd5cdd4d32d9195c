package io.mergesink.core.parquet;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter.RecordFilter;
import org.apache.parquet.filter.UnboundRecordFilter;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
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
   * in them only the pages that do (by the offset index, when the file has one), and only the
   * projected columns.
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
        List<BlockMetaData> groups = reader.getRowGroups();
        for (int g = 0; g < groups.size() && found < rowIndexes.length; g++) {
          long groupEnd = groupStart + groups.get(g).getRowCount();
          if (rowIndexes[found] < groupEnd) {
            found = readGroupAt(reader, g, groupStart, columnIO, materializer, requested, rowIndexes, found, rows);
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

  /**
   * Reads the rows of {@code rowIndexes} from {@code found} on that row group {@code g} (starting
   * at file row {@code groupStart}) holds into {@code rows}; returns the new {@code found}. With an
   * offset index for the first requested column, only the pages holding wanted rows are read
   * (Parquet's row ranges; the other columns' pages follow them); without one, the whole group.
   */
  private static int readGroupAt(ParquetFileReader reader, int g, long groupStart, MessageColumnIO columnIO, RowMaterializer materializer,
      MessageType requested, long[] rowIndexes, int found, Row[] rows) throws IOException {
    BlockMetaData group = reader.getRowGroups().get(g);
    long groupEnd = groupStart + group.getRowCount();
    int last = found;
    while (last < rowIndexes.length && rowIndexes[last] < groupEnd) {
      last++;
    }
    RowRanges ranges = pagesHolding(reader, group, groupStart, requested, rowIndexes, found, last);
    PageReadStore pages = ranges == null ? reader.readRowGroup(g) : reader.readFilteredRowGroup(g, ranges);
    AtPositions wanted = new AtPositions(ranges == null ? null : ranges.iterator(), groupStart, rowIndexes, found, last);
    RecordReader<Row> records = columnIO.getRecordReader(pages, materializer, FilterCompat.get(wanted));
    while (found < last) {
      Row value = records.read();
      if (value == null) {
        throw new IOException("row group " + g + " ended before row " + rowIndexes[found]);
      }
      rows[found++] = value;
    }
    return found;
  }

  /**
   * Matches the records at the wanted positions, so that Parquet's filtered record reader skips
   * the others value by value instead of materializing them: most of the rows of a page read for
   * a few wanted ones are never built. The reader asks once per record, in file order.
   */
  private static final class AtPositions implements UnboundRecordFilter, RecordFilter {
    /** The positions (from the group's start) of the records the pages hold, or null: every row of the group. */
    private final PrimitiveIterator.OfLong rowsRead;
    private final long groupStart;
    private final long[] rowIndexes;
    private final int end;
    private int cursor;
    private long next;

    AtPositions(PrimitiveIterator.OfLong rowsRead, long groupStart, long[] rowIndexes, int from, int to) {
      this.rowsRead = rowsRead;
      this.groupStart = groupStart;
      this.rowIndexes = rowIndexes;
      this.cursor = from;
      this.end = to;
    }

    @Override
    public RecordFilter bind(Iterable<ColumnReader> readers) {
      return this;
    }

    @Override
    public boolean isMatch() {
      long row = groupStart + (rowsRead == null ? next++ : rowsRead.nextLong());
      if (cursor < end && row == rowIndexes[cursor]) {
        cursor++;
        return true;
      }
      return false;
    }
  }

  /** The row ranges of the pages of the first requested column holding wanted rows, or null without an offset index. */
  private static RowRanges pagesHolding(ParquetFileReader reader, BlockMetaData group, long groupStart, MessageType requested,
      long[] rowIndexes, int from, int to) throws IOException {
    String[] path = requested.getColumns().get(0).getPath();
    ColumnChunkMetaData chunk = null;
    for (ColumnChunkMetaData column : group.getColumns()) {
      if (Arrays.equals(column.getPath().toArray(), path)) {
        chunk = column;
      }
    }
    OffsetIndex offsets = chunk == null ? null : reader.readOffsetIndex(chunk);
    if (offsets == null || offsets.getPageCount() <= 1) {
      return null;
    }
    IntArrayList wantedPages = new IntArrayList();
    int page = 0;
    for (int i = from; i < to; i++) {
      long row = rowIndexes[i] - groupStart;
      while (page + 1 < offsets.getPageCount() && offsets.getFirstRowIndex(page + 1) <= row) {
        page++;
      }
      if (wantedPages.isEmpty() || wantedPages.getInt(wantedPages.size() - 1) != page) {
        wantedPages.add(page);
      }
    }
    return RowRanges.create(group.getRowCount(), wantedPages.iterator(), offsets);
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
