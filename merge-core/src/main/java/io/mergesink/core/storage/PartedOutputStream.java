package io.mergesink.core.storage;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Streams one object to an object store in parts: the bytes collect in a part-sized buffer; a file
 * that fits in one part is one whole-object upload at {@link #close()}, a larger one is uploaded a
 * part per full buffer and completed at close (S3's multipart upload, Azure's staged blocks and
 * block list). So a file is never held whole in memory, only one part of it. Subclasses make the
 * requests; this class owns the buffer and the lifecycle.
 *
 * <p>States: OPEN → CLOSED, or OPEN → FAILED when a request fails or the upload is discarded. On
 * failure the uploaded parts are discarded, so no object is left; every later call throws, naming
 * the first error. A stream is closed exactly once; nothing is visible before close.
 */
public abstract class PartedOutputStream extends OutputStream {
  private enum State { OPEN, CLOSED, FAILED }

  /** Small files (commits' neighbours: DVs, {@code _last_checkpoint}) never allocate a whole part. */
  private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

  private final String location;
  private final int partSize;
  private byte[] buffer;
  private int buffered;
  private int partsUploaded;
  /** Whether a part upload was begun (S3 has started a multipart upload even when its first part failed). */
  private boolean partsBegun;
  private State state = State.OPEN;
  private IOException failure;

  /** @param location the object's path, for messages */
  protected PartedOutputStream(String location, int partSizeBytes) {
    this.location = location;
    this.partSize = partSizeBytes;
    this.buffer = new byte[Math.min(INITIAL_BUFFER_BYTES, partSizeBytes)];
  }

  /**
   * Uploads the whole object in one request, replacing it, or with {@code ifAbsent} only when it
   * does not exist.
   *
   * @return false when {@code ifAbsent} and the object existed (nothing was written)
   */
  protected abstract boolean putWhole(byte[] bytes, int length, boolean ifAbsent) throws IOException;

  /** Uploads part {@code partNumber} (from 1), invisible until {@link #completeParts}. */
  protected abstract void putPart(int partNumber, byte[] bytes, int length) throws IOException;

  /**
   * Makes the uploaded parts the object, replacing it, or with {@code ifAbsent} only when it does
   * not exist.
   *
   * @return false when {@code ifAbsent} and the object existed (nothing was published)
   */
  protected abstract boolean completeParts(boolean ifAbsent) throws IOException;

  /** Discards the uploaded parts after a failure (best effort: the caller adds what it throws to the first error). */
  protected abstract void discardParts() throws IOException;

  @Override
  public final void write(int b) throws IOException {
    ensureOpen();
    makeRoom();
    buffer[buffered++] = (byte) b;
  }

  @Override
  public final void write(byte[] b, int off, int len) throws IOException {
    ensureOpen();
    while (len > 0) {
      makeRoom();
      int n = Math.min(len, buffer.length - buffered);
      System.arraycopy(b, off, buffer, buffered, n);
      buffered += n;
      off += n;
      len -= n;
    }
  }

  /** Publishes the object, replacing one that exists. */
  @Override
  public final void close() throws IOException {
    if (state != State.CLOSED) {
      finish(false);
    }
  }

  /**
   * Publishes the object; with {@code ifAbsent}, only when it does not exist.
   *
   * @return false when {@code ifAbsent} and the object existed: nothing was published, the parts are discarded
   */
  public final boolean finish(boolean ifAbsent) throws IOException {
    ensureOpen();
    boolean created;
    try {
      if (partsUploaded == 0) {
        created = putWhole(buffer, buffered, ifAbsent);
      } else {
        if (buffered > 0) {
          uploadPart();
        }
        created = completeParts(ifAbsent);
      }
    } catch (IOException e) {
      fail(e);
      throw e;
    }
    if (created) {
      state = State.CLOSED;
    } else {
      fail(new IOException(location + " exists; this upload was not published"));
    }
    return created;
  }

  /** Discards what was written, unless the stream is closed or failed already. */
  public final void abort() {
    if (state == State.OPEN) {
      fail(new IOException("upload of " + location + " was discarded"));
    }
  }

  /**
   * This stream as a {@link PendingFile}: {@link PendingFile#publish()} finishes it put-if-absent,
   * closing it unpublished aborts it.
   */
  public final PendingFile pending() {
    return new PendingFile() {
      private boolean published;

      @Override
      public OutputStream stream() {
        return new FilterOutputStream(PartedOutputStream.this) {
          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
          }

          @Override
          public void close() {
            // the content is published by publish(), not by closing the stream
          }
        };
      }

      @Override
      public boolean publish() throws IOException {
        published = true;
        return finish(true);
      }

      @Override
      public void close() {
        if (!published) {
          abort();
        }
      }
    };
  }

  /** Grows the buffer up to a part, or uploads the full part. */
  private void makeRoom() throws IOException {
    if (buffered < buffer.length) {
      return;
    }
    if (buffer.length < partSize) {
      buffer = Arrays.copyOf(buffer, (int) Math.min(partSize, 2L * buffer.length));
    } else {
      uploadPart();
    }
  }

  private void uploadPart() throws IOException {
    try {
      partsBegun = true;
      putPart(partsUploaded + 1, buffer, buffered);
      partsUploaded++;
      buffered = 0;
    } catch (IOException e) {
      fail(e);
      throw e;
    }
  }

  private void fail(IOException cause) {
    state = State.FAILED;
    failure = cause;
    if (partsBegun) {
      try {
        discardParts();
      } catch (IOException e) {
        cause.addSuppressed(e);
      }
    }
  }

  private void ensureOpen() throws IOException {
    if (state == State.FAILED) {
      throw new IOException("upload of " + location + " failed earlier and was discarded", failure);
    }
    if (state == State.CLOSED) {
      throw new IOException("upload of " + location + " is closed");
    }
  }
}
