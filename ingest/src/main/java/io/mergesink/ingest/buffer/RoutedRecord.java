package io.mergesink.ingest.buffer;

import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.record.KafkaRecord;
import java.util.Objects;

/**
 * A record decoded and routed, not yet fitted to its table: what the engine knows of a record before
 * it touches the table's state.
 *
 * @param record the record as consumed
 * @param event its change
 * @param table the table it changes; null when it changes none (a replay, a {@link ChangeEvent.Op#SKIP})
 *     and only counts towards its source transaction ({@link PartitionBuffer#pass})
 * @param previousOffset the offset processed before it in its partition
 */
public record RoutedRecord(KafkaRecord record, ChangeEvent event, String table, long previousOffset) {
  public RoutedRecord {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(event, "event");
  }
}
