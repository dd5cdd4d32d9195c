package io.mergesink.core.storage;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} over streams a {@link Opener} supplies, counting the position itself. */
public final class StreamOutputFile implements OutputFile {
  private final String path;
  private final Opener opener;

  /** Opens the stream a Parquet file is written to; closing that stream ends the file. */
  @FunctionalInterface
  public interface Opener {
    OutputStream open() throws IOException;
  }

  /** @param path what {@link #getPath()} reports (for messages) */
  public StreamOutputFile(String path, Opener opener) {
    this.path = path;
    this.opener = opener;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    return createOrOverwrite(blockSizeHint);
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    OutputStream out = opener.open();
    return new PositionOutputStream() {
      private long position;

      @Override
      public long getPos() {
        return position;
      }

      @Override
      public void write(int b) throws IOException {
        out.write(b);
        position++;
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        position += len;
      }

      @Override
      public void flush() throws IOException {
        out.flush();
      }

      @Override
      public void close() throws IOException {
        out.close();
      }
    };
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return path;
  }
}
