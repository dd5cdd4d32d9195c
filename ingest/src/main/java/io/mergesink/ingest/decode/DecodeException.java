package io.mergesink.ingest.decode;

import io.mergesink.ingest.errors.BadRecordException;
import io.mergesink.ingest.record.KafkaRecord;

/**
 * A record that cannot be turned into a change event. The message names the record's topic,
 * partition and offset (the consumed position, before transforms) and what was wrong.
 */
public final class DecodeException extends BadRecordException {
  private static final long serialVersionUID = 1L;

  private DecodeException(KafkaRecord record, String problem, Throwable cause) {
    super(record.partition(), record.offset(), "cannot decode record at " + record.position() + ": " + problem, cause);
  }

  /** A problem with {@code record}. */
  public static DecodeException of(KafkaRecord record, String problem) {
    return of(record, problem, null);
  }

  /** A problem with {@code record}, caused by {@code cause}. */
  public static DecodeException of(KafkaRecord record, String problem, Throwable cause) {
    return new DecodeException(record, problem, cause);
  }
}
