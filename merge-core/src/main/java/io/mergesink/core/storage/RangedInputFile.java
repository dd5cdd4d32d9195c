package io.mergesink.core.storage;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * An object in an object store as a Parquet {@link InputFile}, read by ranged requests: the footer
 * with one request (the first read near the end fetches the file's last {@value #TAIL_BYTES}
 * bytes), a column chunk with one request of exactly its bytes, small reads elsewhere with a
 * {@value #READAHEAD_BYTES} bytes window. The length comes from one metadata lookup, on first use.
 */
public final class RangedInputFile implements InputFile {
  static final int TAIL_BYTES = 64 * 1024;
  static final int READAHEAD_BYTES = 64 * 1024;

  /** The requests of one object: S3's HeadObject and ranged GetObject, Azure's Get Blob Properties and ranged Get Blob. */
  public interface Ranges {
    /** The object's size in bytes (one metadata request). */
    long length() throws IOException;

    /** Exactly {@code length} bytes at {@code offset}, in one request; fails when the object ends before. */
    byte[] read(long offset, int length) throws IOException;
  }

  private final String location;
  private final Ranges ranges;
  private long length = -1;

  /** @param location the object's path, for messages */
  public RangedInputFile(String location, Ranges ranges) {
    this.location = location;
    this.ranges = ranges;
  }

  @Override
  public long getLength() throws IOException {
    if (length < 0) {
      length = ranges.length();
    }
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return new RangedStream(getLength());
  }

  @Override
  public String toString() {
    return location;
  }

  /** Reads through a window of the object, refilled by one ranged request when a read leaves it. */
  private final class RangedStream extends SeekableInputStream {
    private final long fileLength;
    private long position;
    private byte[] window = new byte[0];
    private long windowStart;

    RangedStream(long fileLength) {
      this.fileLength = fileLength;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPos) throws IOException {
      if (newPos < 0 || newPos > fileLength) {
        throw new EOFException("seek to " + newPos + " outside " + location + " (" + fileLength + " bytes)");
      }
      position = newPos;
    }

    @Override
    public int read() throws IOException {
      if (position >= fileLength) {
        return -1;
      }
      ensureWindow(1);
      return window[(int) (position++ - windowStart)] & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (position >= fileLength) {
        return -1;
      }
      int n = (int) Math.min(len, fileLength - position);
      readFully(bytes, off, n);
      return n;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int off, int len) throws IOException {
      if (position + len > fileLength) {
        throw new EOFException("read of " + len + " bytes at " + position + " past the end of " + location + " ("
            + fileLength + " bytes)");
      }
      if (inWindow(len)) {
        System.arraycopy(window, (int) (position - windowStart), bytes, off, len);
      } else if (len > READAHEAD_BYTES) {
        // a column chunk: exactly its bytes, straight into the caller's array
        byte[] range = ranges.read(position, len);
        System.arraycopy(range, 0, bytes, off, len);
      } else {
        ensureWindow(len);
        System.arraycopy(window, (int) (position - windowStart), bytes, off, len);
      }
      position += len;
    }

    @Override
    public int read(ByteBuffer buffer) throws IOException {
      if (!buffer.hasRemaining()) {
        return 0;
      }
      if (position >= fileLength) {
        return -1;
      }
      int n = (int) Math.min(buffer.remaining(), fileLength - position);
      byte[] bytes = new byte[n];
      readFully(bytes, 0, n);
      buffer.put(bytes);
      return n;
    }

    @Override
    public void readFully(ByteBuffer buffer) throws IOException {
      byte[] bytes = new byte[buffer.remaining()];
      readFully(bytes, 0, bytes.length);
      buffer.put(bytes);
    }

    private boolean inWindow(int len) {
      return position >= windowStart && position + len <= windowStart + window.length;
    }

    /** Makes the window hold [position, position + len): the file's tail near the end, else a readahead. */
    private void ensureWindow(int len) throws IOException {
      if (inWindow(len)) {
        return;
      }
      long start = position;
      long end = Math.min(fileLength, position + Math.max(len, READAHEAD_BYTES));
      if (fileLength - position <= TAIL_BYTES) {
        start = Math.max(0, fileLength - TAIL_BYTES);
        end = fileLength;
      }
      window = ranges.read(start, (int) (end - start));
      windowStart = start;
    }

    @Override
    public void close() {
      window = new byte[0];
    }
  }
}
