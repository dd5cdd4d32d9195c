package io.mergesink.connect.decode;

import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A record that cannot be turned into a change event. The message names the record's topic,
 * partition and offset (the consumed position, before transforms) and what was wrong. It is a
 * Connect {@link DataException}, so the task can hand the record to the dead letter queue when
 * {@code errors.tolerance=all}.
 */
public final class DecodeException extends DataException {
  private static final long serialVersionUID = 1L;

  private final String topic;
  private final int partition;
  private final long offset;

  private DecodeException(String topic, int partition, long offset, String problem, Throwable cause) {
    super("cannot decode record at topic " + topic + ", partition " + partition + ", offset " + offset + ": "
        + problem, cause);
    this.topic = topic;
    this.partition = partition;
    this.offset = offset;
  }

  /** A problem with {@code record}. */
  public static DecodeException of(SinkRecord record, String problem) {
    return of(record, problem, null);
  }

  /** A problem with {@code record}, caused by {@code cause}. */
  public static DecodeException of(SinkRecord record, String problem, Throwable cause) {
    return new DecodeException(record.originalTopic(), record.originalKafkaPartition(),
        record.originalKafkaOffset(), problem, cause);
  }

  public String topic() {
    return topic;
  }

  public int partition() {
    return partition;
  }

  public long offset() {
    return offset;
  }
}
