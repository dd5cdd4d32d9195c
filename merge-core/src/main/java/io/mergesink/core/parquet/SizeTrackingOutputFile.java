package io.mergesink.core.parquet;

import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * An {@link OutputFile} that remembers the position of its stream when the stream is closed, so the
 * writer knows the finished file's size without asking the file system again.
 */
final class SizeTrackingOutputFile implements OutputFile {
  private static final long NOT_CLOSED = -1;

  private final OutputFile delegate;
  private long finalSize = NOT_CLOSED;

  SizeTrackingOutputFile(OutputFile delegate) {
    this.delegate = delegate;
  }

  /** The file's length once its stream is closed. */
  long finalSize() {
    if (finalSize == NOT_CLOSED) {
      throw new IllegalStateException("the size of " + delegate.getPath() + " is known only after it is closed");
    }
    return finalSize;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    return new Tracking(delegate.create(blockSizeHint));
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    return new Tracking(delegate.createOrOverwrite(blockSizeHint));
  }

  @Override
  public boolean supportsBlockSize() {
    return delegate.supportsBlockSize();
  }

  @Override
  public long defaultBlockSize() {
    return delegate.defaultBlockSize();
  }

  @Override
  public String getPath() {
    return delegate.getPath();
  }

  private final class Tracking extends PositionOutputStream {
    private final PositionOutputStream out;

    Tracking(PositionOutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() throws IOException {
      return out.getPos();
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      long size = out.getPos();
      out.close();
      finalSize = size;
    }
  }
}
