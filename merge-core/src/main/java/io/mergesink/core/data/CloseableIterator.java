package io.mergesink.core.data;

import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;

/**
 * An iterator over a resource (an open file, a stream of log actions). The caller owns it and
 * must close it, also when it stops early; closing twice is harmless.
 *
 * <p>{@link #hasNext()} and {@link #next()} report I/O failures as
 * {@link java.io.UncheckedIOException}, whose cause names the file.
 */
public interface CloseableIterator<T> extends Iterator<T>, Closeable {
  /** Releases the underlying resource. */
  @Override
  void close() throws IOException;
}
