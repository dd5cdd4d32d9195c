package io.mergesink.ingest.buffer;

import io.mergesink.ingest.decode.ChangeEvent;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What one partition's buffer holds for one table, drained.
 *
 * <ul>
 *   <li>{@code truncatedAt}: the offset of the last truncate of the table in this batch, if any.
 *       For keyed tables it comes first: the table is emptied, then {@code changes} apply (changes
 *       before the truncate were dropped from the buffer).
 *   <li>{@code changes}: for keyed tables at most one change (upsert or delete) per key, in the order
 *       keys first appeared; for append tables every event in offset order, truncates included.
 *   <li>{@code transactionPieces}: the source transactions of which {@code changes} hold a piece, not
 *       the whole: each was larger than the buffer (docs/transactions.md); empty otherwise.
 * </ul>
 */
public record TableChanges(String table, String topic, int partition, OptionalLong truncatedAt,
    List<ChangeEvent> changes, Set<String> transactionPieces) {
  public TableChanges {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(truncatedAt, "truncatedAt");
    changes = List.copyOf(changes);
    transactionPieces = Set.copyOf(transactionPieces);
  }

  /** Changes that hold whole source transactions, or none. */
  public TableChanges(String table, String topic, int partition, OptionalLong truncatedAt, List<ChangeEvent> changes) {
    this(table, topic, partition, truncatedAt, changes, Set.of());
  }
}
