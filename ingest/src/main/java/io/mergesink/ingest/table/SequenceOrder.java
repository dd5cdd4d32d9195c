package io.mergesink.ingest.table;

import io.mergesink.core.data.Unchanged;
import io.mergesink.ingest.buffer.ChangeOrder;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.UpsertOrder;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code upsert.order.by} as a {@link ChangeOrder} of prepared events (rows in their table's
 * schema): the source position from Debezium's {@code source} block (a Kafka tombstone carries
 * none), or the named column of an upsert's row (a delete carries none: its row is gone). Changes found stale are logged at
 * debug and counted: in a buffer at once, while a change set is decided only once it lands ({@link #landed}), since a
 * change set a concurrent commit moved is decided again.
 */
final class SequenceOrder implements ChangeOrder {
  private static final Logger LOG = LoggerFactory.getLogger(SequenceOrder.class);
  private final UpsertOrder order;
  private final IngestMetrics metrics;
  /** Changes found stale while deciding the current change set. */
  private long skipsOfDecision;
  /** Per table, the skips of its last decided change set, counted when it lands. */
  private final Map<String, Long> undecidedSkips = new HashMap<>();

  SequenceOrder(UpsertOrder order, IngestMetrics metrics) {
    this.order = order;
    this.metrics = metrics;
  }

  UpsertOrder order() {
    return order;
  }

  @Override
  public Object sequence(ChangeEvent event) {
    return switch (order.kind()) {
      case NONE -> null;
      case SOURCE_LSN -> event.source().lsn();
      case SOURCE_TS_MS -> event.source().tsMs();
      case COLUMN -> {
        if (event.op() != Op.UPSERT) {
          yield null;
        }
        int index = event.valueSchema().indexOf(order.column());
        Object value = index < 0 ? null : event.value().get(index);
        yield value == Unchanged.VALUE ? null : value;
      }
    };
  }

  /**
   * Ties of {@code source.lsn} keep what is held: two changes have distinct LSNs, so an equal one is
   * the same change again, or a snapshot row, which Debezium gives the WAL position the next change
   * is written at (seen with Debezium 3.6: a re-snapshot row with the LSN of the update after it).
   * Clocks and columns tie for distinct changes: the later delivered wins.
   */
  @Override
  public boolean laterWinsTies() {
    return order.kind() != UpsertOrder.Kind.SOURCE_LSN;
  }

  /** A delete ordered by a column has no sequence (its row is gone): it applies in Kafka order. */
  @Override
  public boolean appliesWithoutSequence(ChangeEvent event) {
    return event.op() == Op.DELETE && deletesApplyWithoutSequence();
  }

  /** Whether deletes, which carry no sequence when ordered by a column, apply in Kafka order. */
  boolean deletesApplyWithoutSequence() {
    return order.kind() == UpsertOrder.Kind.COLUMN;
  }

  /** A buffered change was dropped: counted at once, a buffer drops it once. */
  @Override
  public void stale(ChangeEvent dropped, Object newerSequence) {
    metrics.staleChangesSkipped(1);
    log(dropped.position(), dropped.key(), sequence(dropped), newerSequence);
  }

  /**
   * While deciding a change set: a change of {@code key} with {@code sequence} was skipped, its key
   * has a change with {@code newer}. Counted when the change set lands ({@link #landed}).
   */
  void skipped(String where, Object key, Object sequence, Object newer) {
    skipsOfDecision++;
    log(where, key, sequence, newer);
  }

  /** Starts deciding a change set: what an unfinished decision found is not counted. */
  void deciding() {
    skipsOfDecision = 0;
  }

  /** The change set of {@code table} was decided: its skips count when it lands, in place of an earlier decision's. */
  void decided(String table) {
    undecidedSkips.put(table, skipsOfDecision);
    skipsOfDecision = 0;
  }

  /** The change set last decided for {@code table} landed: its skips count now. */
  void landed(String table) {
    Long skips = undecidedSkips.remove(table);
    if (skips != null && skips > 0) {
      metrics.staleChangesSkipped(skips);
    }
  }

  private void log(String where, Object key, Object sequence, Object newer) {
    if (LOG.isDebugEnabled()) {
      LOG.debug("Skipped the change {} of key {} with {} {}: its key has a newer change ({})", where, key, order.configValue(),
          sequence, newer);
    }
  }
}
