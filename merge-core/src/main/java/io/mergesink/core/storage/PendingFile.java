package io.mergesink.core.storage;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A file being written that appears whole or not at all (from {@link Storage#createPending}): its
 * bytes go to {@link #stream()}, and only {@link #publish()} makes it visible. Closing it without
 * publishing discards what was written, so a writer that fails half-way (a Parquet writer that
 * throws, then closes its stream from a try-with-resources) leaves nothing a reader could mistake
 * for the file.
 *
 * <pre>{@code
 * try (PendingFile file = storage.createPending(path)) {
 *   write(file.stream());
 *   file.publish();
 * }
 * }</pre>
 */
public interface PendingFile extends AutoCloseable {
  /** Where the content goes; closing it does not publish. Streamed: object stores upload it in parts. */
  OutputStream stream();

  /**
   * Makes the file visible, put-if-absent: when the path exists already (another writer published
   * it first), that file is kept and this content discarded.
   *
   * @return true when this call created the file, false when it existed
   */
  boolean publish() throws IOException;

  /** Discards the content unless {@link #publish()} was called. */
  @Override
  void close() throws IOException;
}
