package io.mergesink.ingest.transaction;

import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The ends of source transactions, from Debezium's transaction topic: how many change events each
 * had per table, so that a buffer knows when it holds all of a transaction's events. What it does
 * not know only delays a transaction's commit (a later transaction's first event also completes it),
 * never makes one land in part. Thread-safe; the engine owns it and closes it.
 */
public interface TransactionEnds extends AutoCloseable {
  /** Knows no ends: transactions are complete when a later one begins. */
  TransactionEnds NONE = id -> Optional.empty();

  /** The {@code END} event of transaction {@code id}, if it was read. */
  Optional<TransactionEvent> end(String id);

  /**
   * The engine buffers open transactions of {@code partition} from {@code timestampMs} on: the ends
   * of transactions from then on are wanted. Does nothing unless overridden.
   */
  default void follow(KafkaPartition partition, long timestampMs) {}

  /**
   * How many partitions {@code topic} has, once known: asking has it looked up, and looked up again from
   * time to time (a topic may grow). Empty unless overridden.
   */
  default OptionalInt partitionCount(String topic) {
    return OptionalInt.empty();
  }

  /**
   * The end offset of {@code partition} as looked up after the {@code END} at offset {@code endOffset} of
   * the transaction topic was read, once known: the changes of the transactions up to that {@code END}
   * are below it. Asking has it looked up, and looked up again from time to time. Empty unless
   * overridden.
   */
  default OptionalLong endOffsetAfter(KafkaPartition partition, long endOffset) {
    return OptionalLong.empty();
  }

  /**
   * Whether the changes of transaction {@code id} may be committed by the next flush: it ends at or
   * before the cut the flush commits up to (docs/transactions.md, "Consistent cuts"). Always, without cuts.
   */
  default boolean withinCut(String id) {
    return true;
  }

  /**
   * Whether buffers hold transactions that end after the cut open even when they are complete (cuts
   * are on); then a transaction held is complete also when a later one is held after it.
   */
  default boolean holdsPastCut() {
    return false;
  }

  @Override
  default void close() {}
}
