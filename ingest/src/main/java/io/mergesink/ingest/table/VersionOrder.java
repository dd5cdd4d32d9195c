package io.mergesink.ingest.table;

import io.mergesink.ingest.buffer.ChangeOrder;
import io.mergesink.ingest.buffer.TableChanges;
import java.util.List;

/**
 * Where a change lands in its key's history (docs/design.md, "History tables"): the order
 * {@link OrderedHistory} walks each key's versions and changes in. By {@code upsert.order.by}
 * ({@link SequenceOrder}), versions keep their sequence in a column and a late change lands
 * among them; in Kafka order ({@link KafkaOrder}), a change's sequence is its place in the flush,
 * which no version keeps, so every change lands after the versions the table holds.
 */
interface VersionOrder extends ChangeOrder {
  /** Starts deciding the change set of {@code changes}: what an unfinished decision found is forgotten. */
  void deciding(List<TableChanges> changes);

  /**
   * The column versions keep their sequence in ({@link HistoryColumns#endColumn} keeps that of the
   * change that ended them); null when versions keep none.
   */
  String column();

  /** Whether the hard deletes of a history table are traced for other tasks ({@link DeleteTraces}): by a source position. */
  boolean tracesDeletes();

  /** While deciding: a change of {@code key} at {@code sequence} was skipped, its key has one at {@code newer}. */
  void skipped(String where, Object key, Object sequence, Object newer);

  /** The change set of {@code table} was decided: what deciding found takes effect when it lands. */
  void decided(String table);

  /** The change set last decided for {@code table} landed. */
  void landed(String table);
}
