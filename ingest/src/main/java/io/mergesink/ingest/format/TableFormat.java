package io.mergesink.ingest.format;

import io.mergesink.core.storage.RequestCounts;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A table format under {@code table.root}: finds, opens and creates its tables by their name (their
 * path relative to the root). It owns the storage it reads and writes through, and releases it on
 * {@link #close}. Chosen once per connector ({@link TableFormats}).
 */
public interface TableFormat extends AutoCloseable {
  /** The names of all tables under the root, down to the depth {@code table.name.format} can produce. */
  List<String> discover() throws IOException;

  /**
   * The table {@code table}, when it exists, opened for a task holding {@code partitions}: its
   * writer owns their rows and looks their keys up ({@link FormatTable#reassign}). The writer
   * replaces rows by {@code writerKey} when the table records no key (a table of another tool),
   * and checks a recorded key against it; with an empty one it only adds rows, or takes the key the
   * table records.
   *
   * @throws io.mergesink.core.protocol.UnsupportedTableException the table needs a feature the format
   *     cannot honour; the task fails naming table and feature
   */
  Optional<FormatTable> open(String table, List<String> writerKey, Collection<KafkaPartition> partitions) throws IOException;

  /**
   * Creates {@code table} from {@code spec} unless another writer created it first, and opens it as
   * {@link #open} does (a table created meanwhile is opened as it is; the caller checks it fits).
   *
   * @throws IllegalArgumentException {@code spec} cannot make a table (a key or partition column
   *     missing, a table property the format refuses)
   */
  FormatTable create(String table, NewTable spec, List<String> writerKey, Collection<KafkaPartition> partitions) throws IOException;

  /** The storage requests made so far, by kind; may be read from any thread. */
  RequestCounts requests();

  /**
   * The storage requests made so far on the calling thread, by kind: what one commit asked for while
   * the commits of other tables run on other threads. A format that counts no requests per thread
   * answers {@link #requests()}.
   */
  default RequestCounts requestsOfThisThread() {
    return requests();
  }

  /** Releases the storage. */
  @Override
  void close();
}
