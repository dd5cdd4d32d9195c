package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.mergeinto.Assignment;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.format.TableScopeTopics;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.UpsertOrder;
import java.util.List;
import java.util.Optional;

/**
 * How a keyed or history table orders the changes of a key (docs/design.md, "Ordering and soft
 * deletes"), chosen once from {@code upsert.order.by} ({@link #of}), and per table when its topic
 * grew: in Kafka order ({@link InKafkaOrder}), by a source position the sink keeps in a column of
 * its own ({@link BySourcePosition}), or by a column of the row ({@link ByRowColumn}). It answers
 * what {@link KeyedTables}, {@link OrderedMerge} and {@link HistoryTables} would otherwise ask the
 * option: the columns the sink adds, the column the MERGE compares, each change's sequence, whether
 * deletes are traced and kept, which of two changes wins.
 */
sealed interface TableOrder {
  static TableOrder of(UpsertOrder orderBy, IngestMetrics metrics) {
    SequenceOrder changes = new SequenceOrder(orderBy, metrics);
    return switch (orderBy.kind()) {
      case NONE -> new InKafkaOrder(changes, new KafkaOrder());
      case SOURCE_LSN, SOURCE_TS_MS -> new BySourcePosition(changes);
      case COLUMN -> new ByRowColumn(changes);
    };
  }

  /** The order of a key's changes ({@code upsert.order.by} as a {@link io.mergesink.ingest.buffer.ChangeOrder}): for buffers and the MERGE. */
  SequenceOrder changes();

  /**
   * Where a change lands in its key's history, for the one {@link OrderedHistory} that walks this
   * order (it holds what a decision found): by the sequences of {@link #changes}.
   */
  default VersionOrder versions() {
    return changes();
  }

  /** The column a table keeps its sequences in, which the MERGE's "newer" tests compare; null in Kafka order (blind upserts). */
  default String column() {
    return changes().column();
  }

  /** The column the sink adds to keep the sequence (a source position); none when the sequence is in the row or there is none. */
  default List<StructField> ownColumns() {
    return List.of();
  }

  /** The column of the row the sequence is read from, which the table must have; empty when the sequence is not in the row. */
  default Optional<String> rowColumn() {
    return Optional.empty();
  }

  /** Sets the sequence of {@code event} in its table row {@code values} of {@code schema} where the sink keeps it ({@link #ownColumns}). */
  default void setSequence(Object[] values, StructType schema, ChangeEvent event) {}

  /**
   * How an UPDATE sets {@code column}: from the source, except the sink's sequence column, which keeps
   * the target's value when the change carries none.
   */
  default Assignment assignment(String column) {
    return Assignment.fromSource(column);
  }

  /** The assignments that keep the sink's sequence column ({@link #assignment}); none when it has none. */
  default List<Assignment> sequenceKept() {
    return List.of();
  }

  /** Whether the hard deletes of the table are traced for other tasks ({@link DeleteTraces}): by a source position. */
  default boolean tracesDeletes() {
    return false;
  }

  /**
   * Whether a delete of a key the table does not hold is kept as a row (key, sequence, soft-delete
   * marks) in a table of {@code schema} keyed by {@code key}: by a source position, when every other
   * column is nullable, so that ordering stays exact after a restart.
   */
  default boolean keepsUnmatchedDeletes(StructType schema, List<String> key) {
    return false;
  }

  /**
   * Of two changes of a key from different partitions in one change set, the newer ({@link
   * io.mergesink.ingest.buffer.ChangeOrder#replaces}); a skipped one counts when its change set lands.
   */
  default ChangeEvent newer(ChangeEvent earlier, ChangeEvent later) {
    SequenceOrder order = changes();
    if (order.replaces(later, earlier)) {
      return later;
    }
    order.skipped(later.position(), later.key(), order.sequence(later), order.sequence(earlier));
    return earlier;
  }

  /**
   * The source position that orders a table of {@code schema} whose keys moved between partitions
   * (docs/design.md, "Topics that grow"), about to take {@code incoming}; empty when this order stays.
   */
  default Optional<UpsertOrder> movedKeysOrder(StructType schema, List<TableChanges> incoming) {
    return Optional.empty();
  }

  /**
   * Makes {@code builder}'s change set, decided under {@code movedKeyTopics} (the table's {@value
   * TableScopeTopics#PROPERTY}), land only while the table names those topics, when this order
   * depends on it.
   */
  default void decidedUnder(ChangeSet.Builder builder, String movedKeyTopics) {}

  /** The sink's sequence column from the source, or the target's when the change carries none. */
  private static Assignment keepingTarget(String sequence) {
    return Assignment.withTarget(sequence, List.of(sequence), (s, t) -> s.get(sequence) != null ? s.get(sequence) : t.get(sequence));
  }

  /**
   * Kafka order: the last change delivered wins, upserts are blind; a history's versions are placed
   * by their place in the flush ({@link KafkaOrder}). Of two changes of a key from different
   * partitions the later Kafka timestamp wins; a table whose keys moved is ordered by a source
   * position instead ({@link MovedKeysOrder}), and a change set decided in Kafka order lands only
   * while the table names no other moved topics.
   */
  record InKafkaOrder(SequenceOrder changes, KafkaOrder versions) implements TableOrder {
    @Override
    public ChangeEvent newer(ChangeEvent earlier, ChangeEvent later) {
      return later.timestampMs() >= earlier.timestampMs() ? later : earlier;
    }

    @Override
    public Optional<UpsertOrder> movedKeysOrder(StructType schema, List<TableChanges> incoming) {
      return MovedKeysOrder.of(schema, incoming);
    }

    @Override
    public void decidedUnder(ChangeSet.Builder builder, String movedKeyTopics) {
      builder.decidedUnder(TableScopeTopics.PROPERTY, movedKeyTopics);
    }
  }

  /** {@code source.lsn} or {@code source.ts_ms}, kept in the sink's own column ({@code __source_lsn}, {@code __source_ts_ms}). */
  record BySourcePosition(SequenceOrder changes) implements TableOrder {
    @Override
    public List<StructField> ownColumns() {
      return List.of(new StructField(changes.column(), PrimitiveType.LONG, true));
    }

    @Override
    public void setSequence(Object[] values, StructType schema, ChangeEvent event) {
      values[schema.indexOf(changes.column())] = changes.sequence(event);
    }

    @Override
    public Assignment assignment(String column) {
      return column.equals(changes.column()) ? keepingTarget(column) : Assignment.fromSource(column);
    }

    @Override
    public List<Assignment> sequenceKept() {
      return List.of(keepingTarget(changes.column()));
    }

    @Override
    public boolean tracesDeletes() {
      return true;
    }

    /** When every column but the key's is nullable: a row of only the key, the sequence and the soft-delete marks fits. */
    @Override
    public boolean keepsUnmatchedDeletes(StructType schema, List<String> key) {
      return schema.fields().stream().allMatch(field -> field.nullable() || key.contains(field.name()));
    }
  }

  /** A column of the row, which the source writes (a version or an update time); a delete carries none. */
  record ByRowColumn(SequenceOrder changes) implements TableOrder {
    @Override
    public Optional<String> rowColumn() {
      return Optional.of(changes.column());
    }
  }
}
