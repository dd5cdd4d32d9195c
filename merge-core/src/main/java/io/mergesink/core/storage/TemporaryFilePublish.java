package io.mergesink.core.storage;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.UUID;

/**
 * A {@link PendingFile} written to a temporary file beside its target ({@code .<name>.<uuid>.tmp}, a
 * name no reader looks at) and published by one atomic step that refuses an existing target: a hard
 * link on local file systems ({@link HardLinkPublish}), a rename on HDFS. The temporary file is gone
 * afterwards, published or not.
 */
abstract class TemporaryFilePublish implements PendingFile {
  private final OutputStream out;
  private boolean streamClosed;
  private boolean done;

  /** @param out the open temporary file */
  TemporaryFilePublish(OutputStream out) {
    this.out = out;
  }

  /** The name a file is written under before it is published as {@code name}. */
  static String temporaryName(String name) {
    return "." + name + "." + UUID.randomUUID() + ".tmp";
  }

  /** Publishes the complete temporary file as the target; false when the target exists. */
  abstract boolean publishTemporary() throws IOException;

  abstract void deleteTemporary() throws IOException;

  @Override
  public final OutputStream stream() {
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        closeStream();
      }
    };
  }

  @Override
  public final boolean publish() throws IOException {
    closeStream();
    done = true;
    try {
      return publishTemporary();
    } finally {
      deleteTemporary();
    }
  }

  @Override
  public final void close() throws IOException {
    if (!done) {
      done = true;
      try {
        closeStream();
      } finally {
        deleteTemporary();
      }
    }
  }

  private void closeStream() throws IOException {
    if (!streamClosed) {
      streamClosed = true;
      out.close();
    }
  }
}
