package io.mergesink.core.log;

import java.io.ByteArrayOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} that collects the file in memory, so a checkpoint can be published
 * in one atomic {@code writeIfAbsent} instead of being visible half-written.
 */
final class InMemoryOutputFile implements OutputFile {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    return createOrOverwrite(blockSizeHint);
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    bytes.reset();
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return bytes.size();
      }

      @Override
      public void write(int b) {
        bytes.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        bytes.write(b, off, len);
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
    return "memory";
  }

  byte[] toByteArray() {
    return bytes.toByteArray();
  }
}
