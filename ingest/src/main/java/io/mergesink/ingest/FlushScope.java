package io.mergesink.ingest;

/** What an {@link IngestEngine#flush(FlushScope)} may leave buffered. */
public enum FlushScope {
  /**
   * Nothing: every pending change is committed. For a front end that commits its own consumer
   * position right after the flush (Kafka Streams), which must not run ahead of the tables.
   */
  EVERYTHING,
  /**
   * Everything but a partition whose newest change is the delete that starts a primary-key change,
   * left buffered for one flush so that its create lands in the same commit (the create takes the
   * row's unchanged TOAST columns from the old key's row). For a front end that commits only
   * {@link IngestEngine#committedOffsets()} (Kafka Connect).
   */
  WHOLE_KEY_CHANGES
}
