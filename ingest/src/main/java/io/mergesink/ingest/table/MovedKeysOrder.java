package io.mergesink.ingest.table;

import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.options.UpsertOrder;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The source position that orders the changes of a keyed table whose keys moved between partitions
 * (a topic that grew; docs/design.md, "Topics that grow") when {@code upsert.order.by} is none:
 * PostgreSQL's {@code source.lsn} where the changes carry it, else Debezium's {@code source.ts_ms}
 * (ties go to the later delivery, Kafka's order within a partition). A table that keeps one of the
 * two already ({@code __source_lsn}, {@code __source_ts_ms}) stays with it, so every task orders
 * the table by the same column.
 */
final class MovedKeysOrder {
  private static final UpsertOrder BY_LSN = UpsertOrder.parse("source.lsn");
  private static final UpsertOrder BY_TS_MS = UpsertOrder.parse("source.ts_ms");

  private MovedKeysOrder() {}

  /** The order for a table of {@code schema} about to take {@code changes}; empty when neither the table nor a change has a source position. */
  static Optional<UpsertOrder> of(StructType schema, List<TableChanges> changes) {
    if (schema.indexOf(BY_LSN.column()) >= 0) {
      return Optional.of(BY_LSN);
    }
    if (schema.indexOf(BY_TS_MS.column()) >= 0) {
      return Optional.of(BY_TS_MS);
    }
    if (any(changes, event -> event.source().lsn() != null)) {
      return Optional.of(BY_LSN);
    }
    if (any(changes, event -> event.source().tsMs() != null)) {
      return Optional.of(BY_TS_MS);
    }
    return Optional.empty();
  }

  private static boolean any(List<TableChanges> changes, Predicate<ChangeEvent> test) {
    return changes.stream().flatMap(partition -> partition.changes().stream()).anyMatch(test);
  }
}
