package io.mergesink.core.parquet;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.util.AutoCloseables.ParquetCloseResourceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one Parquet data file of a Delta table and collects its Delta statistics on the way.
 *
 * <p>Lifecycle: {@link #open} → any number of {@link #write} → {@link #finish}, which closes the
 * file and returns it. {@link #close} without {@code finish} (or after a failed write) aborts: the
 * partial file is deleted. So {@code try (DataFileWriter w = DataFileWriter.open(..)) { ..; return
 * w.finish(); }} never leaves a half-written file behind (a crash still may; vacuum removes it).
 * Calls in the wrong state throw {@link IllegalStateException} naming the state. Not thread-safe.
 */
public final class DataFileWriter implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DataFileWriter.class);

  private enum State { OPEN, FINISHED, FAILED, CLOSED }

  private final Storage storage;
  private final String path;
  private final ParquetWriter<Row> writer;
  private final SizeTrackingOutputFile output;
  private final FileStatistics statistics;
  private State state = State.OPEN;

  private DataFileWriter(Storage storage, String path, ParquetWriter<Row> writer,
                         SizeTrackingOutputFile output, FileStatistics statistics) {
    this.storage = storage;
    this.path = path;
    this.writer = writer;
    this.output = output;
    this.statistics = statistics;
  }

  /**
   * Creates (or replaces) the file at {@code path} for rows of {@code schema}.
   *
   * @throws IllegalArgumentException when the schema cannot be stored in Parquet (an empty struct)
   * @throws IOException when the file cannot be created
   */
  public static DataFileWriter open(Storage storage, String path, StructType schema, ParquetWriteOptions options)
      throws IOException {
    return open(storage, path, schema, schema, options);
  }

  /**
   * {@link #open(Storage, String, StructType, ParquetWriteOptions)} with statistics for the fields
   * of {@code statsSchema} only, a prefix of {@code schema}: columns hidden from the table's schema
   * (materialized row tracking columns) get none, as in files Delta writes.
   */
  public static DataFileWriter open(Storage storage, String path, StructType schema, StructType statsSchema,
      ParquetWriteOptions options) throws IOException {
    SizeTrackingOutputFile output = new SizeTrackingOutputFile(storage.parquetOutput(path));
    RowWriteSupport writeSupport = new RowWriteSupport(schema);
    ParquetWriter<Row> writer = new Builder(output, writeSupport)
        .withConf(new Configuration(false))
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .withCompressionCodec(options.codec())
        .withRowGroupSize(options.rowGroupSizeBytes())
        .withPageSize(options.pageSizeBytes())
        .withDictionaryPageSize(options.pageSizeBytes())
        .withDictionaryEncoding(true)
        .withWriterVersion(WriterVersion.PARQUET_1_0)
        .build();
    return new DataFileWriter(storage, path, writer, output, new FileStatistics(statsSchema));
  }

  /**
   * Appends a row. Its values follow the Java classes documented on
   * {@link io.mergesink.core.types.DataType}.
   *
   * @throws IllegalArgumentException when the row does not fit the schema; the writer is then
   *     failed and only {@link #close} (which deletes the file) is allowed
   * @throws IOException when writing fails; the writer is failed likewise
   */
  public void write(Row row) throws IOException {
    requireState(State.OPEN, "write");
    try {
      writer.write(row);
    } catch (IOException | RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
    statistics.add(row);
  }

  /** Rows written so far. */
  public long numRecords() {
    return statistics.numRecords();
  }

  /**
   * Approximate size of the file so far: bytes flushed plus bytes buffered for the current row
   * group (compressed pages and an estimate for the open page). For rolling to a new file at a
   * target size.
   */
  public long bytesWritten() {
    return state == State.FINISHED ? output.finalSize() : writer.getDataSize();
  }

  /**
   * Writes the footer, closes the file and returns it with its statistics.
   *
   * @throws IOException when the file cannot be completed; the writer is failed and {@link #close}
   *     deletes what was written
   */
  public WrittenFile finish() throws IOException {
    requireState(State.OPEN, "finish");
    try {
      writer.close();
    } catch (ParquetCloseResourceException e) {
      // Parquet closes the stream in a finally block and turns its IOException into this unchecked one,
      // which replaces the failure of the write before it. An S3 upload that failed part-way fails its
      // close too: it is still an I/O failure, which the caller retries, not a bug.
      state = State.FAILED;
      if (e.getCause() instanceof IOException io) {
        throw new IOException("cannot complete data file " + path + ": " + io.getMessage(), io);
      }
      throw e;
    } catch (IOException | RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
    state = State.FINISHED;
    return new WrittenFile(path, output.finalSize(), statistics.numRecords(), statistics.toJson());
  }

  /** After {@link #finish}: nothing. Otherwise aborts and deletes the partial file. */
  @Override
  public void close() throws IOException {
    if (state == State.FINISHED || state == State.CLOSED) {
      state = State.CLOSED;
      return;
    }
    state = State.CLOSED;
    try {
      writer.close();
    } catch (IOException | RuntimeException e) {
      LOG.debug("ignoring failure to close aborted data file {}", path, e);
    }
    storage.delete(path);
  }

  private void requireState(State expected, String operation) {
    if (state != expected) {
      throw new IllegalStateException("cannot " + operation + " data file " + path + ": the writer is "
          + state + ", expected " + expected);
    }
  }

  private static final class Builder extends ParquetWriter.Builder<Row, Builder> {
    private final RowWriteSupport writeSupport;

    Builder(OutputFile file, RowWriteSupport writeSupport) {
      super(file);
      this.writeSupport = writeSupport;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Row> getWriteSupport(Configuration conf) {
      return writeSupport;
    }

    @Override
    protected WriteSupport<Row> getWriteSupport(ParquetConfiguration conf) {
      return writeSupport;
    }
  }
}
