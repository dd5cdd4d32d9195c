package io.mergesink.core.parquet;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

/**
 * Rows of one file, row group by row group, in physical order. Owns the {@link ParquetFileReader}
 * and closes it on {@link #close()}.
 */
final class ParquetRowIterator implements CloseableIterator<Row> {
  private final String path;
  private final ParquetFileReader reader;
  private final MessageColumnIO columnIO;
  private final RowMaterializer materializer;
  private RecordReader<Row> records;
  private long rowsLeftInGroup;
  private Row next;
  private boolean exhausted;
  private boolean closed;

  ParquetRowIterator(String path, ParquetFileReader reader, MessageType requestedSchema, RowMaterializer materializer) {
    this.path = path;
    this.reader = reader;
    this.materializer = materializer;
    MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
    this.columnIO = new ColumnIOFactory(reader.getFooter().getFileMetaData().getCreatedBy())
        .getColumnIO(requestedSchema, fileSchema, true);
    reader.setRequestedSchema(requestedSchema);
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    if (exhausted || closed) {
      return false;
    }
    try {
      while (rowsLeftInGroup == 0) {
        PageReadStore rowGroup = reader.readNextRowGroup();
        if (rowGroup == null) {
          exhausted = true;
          return false;
        }
        rowsLeftInGroup = rowGroup.getRowCount();
        records = columnIO.getRecordReader(rowGroup, materializer);
      }
      next = records.read();
      rowsLeftInGroup--;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read data file " + path, e);
    } catch (ParquetDecodingException e) {
      throw new UncheckedIOException(new IOException("corrupt data file " + path + ": " + e.getMessage(), e));
    }
    return true;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException("no more rows in data file " + path);
    }
    Row row = next;
    next = null;
    return row;
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      reader.close();
    }
  }
}
