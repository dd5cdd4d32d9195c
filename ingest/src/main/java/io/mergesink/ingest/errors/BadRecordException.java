package io.mergesink.ingest.errors;

import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;

/**
 * A record that cannot be written (docs/design.md, "Bad input"): no usable key, a value the decoder
 * cannot read, a table it cannot be routed to, a row that does not fit its table. Nothing of it was
 * buffered and its position did not advance; the front end either fails or, when its user allows
 * that, sets the record aside (a dead letter queue) and tells the engine to move past it. The message
 * names the record's topic, partition and offset.
 */
public class BadRecordException extends IngestException {
  private static final long serialVersionUID = 1L;

  private final KafkaPartition partition;
  private final long offset;

  /** The record at {@code record}'s position cannot be written because of {@code problem}. */
  public BadRecordException(KafkaRecord record, String problem, Throwable cause) {
    this(record.partition(), record.offset(), "record at " + record.position() + ": " + problem, cause);
  }

  /** @param message the whole message, which must name the position */
  protected BadRecordException(KafkaPartition partition, long offset, String message, Throwable cause) {
    super(message, cause);
    this.partition = partition;
    this.offset = offset;
  }

  public KafkaPartition partition() {
    return partition;
  }

  public String topic() {
    return partition.topic();
  }

  public long offset() {
    return offset;
  }
}
