package io.mergesink.ingest.buffer;

import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.ChangeEvent.Op;

/**
 * Which of two changes of one key is the newer (docs/design.md, "Ordering and soft deletes"): by
 * a sequence from the source when changes carry one ({@code upsert.order.by}), else by Kafka
 * order. Stateless apart from what {@link #stale} reports.
 */
public interface ChangeOrder {
  /** Kafka order: a change delivered later replaces the one before it. */
  ChangeOrder KAFKA = event -> null;  // no sequences: every later change replaces the earlier

  /** The sequence of {@code event} (a {@link Comparable}), or null when it carries none. */
  Object sequence(ChangeEvent event);

  /**
   * Whether {@code later}, delivered after {@code earlier}, replaces it: when its sequence is newer,
   * or equal and {@link #laterWinsTies}. A change without a sequence replaces one with a sequence
   * only when {@link #appliesWithoutSequence} says so, and is replaced by any.
   *
   * <p>In any order, a delete without a source time (a Kafka tombstone) does not replace the delete
   * of its key before it: both delete the row, and the Debezium delete carries when and where in
   * the source (the {@code __deleted_at} of soft deletes; the position that orders the changes of a
   * table whose topic grew), the tombstone neither.
   */
  default boolean replaces(ChangeEvent later, ChangeEvent earlier) {
    if (later.op() == Op.DELETE && earlier.op() == Op.DELETE && later.source().tsMs() == null) {
      return false;
    }
    Object laterSequence = sequence(later);
    Object earlierSequence = sequence(earlier);
    if (laterSequence == null) {
      return earlierSequence == null || appliesWithoutSequence(later);
    }
    return earlierSequence == null || newer(laterSequence, earlierSequence);
  }

  /** Whether a change with sequence {@code incoming} replaces one (or a row) with {@code held}. */
  default boolean newer(Object incoming, Object held) {
    int order = compare(incoming, held);
    return order > 0 || (order == 0 && laterWinsTies());
  }

  /**
   * Whether of two changes with equal sequences the later delivered wins (a clock's ties), rather
   * than the one held (a log position's: the same change, or a snapshot read just before it).
   */
  default boolean laterWinsTies() {
    return true;
  }

  /**
   * Whether {@code event}, which carries no sequence, replaces changes and rows that have one (in
   * Kafka order). Without a sequence nothing places a change (a Kafka tombstone carries no source
   * position: the Debezium delete before it does), so by default it does not.
   */
  default boolean appliesWithoutSequence(ChangeEvent event) {
    return false;
  }

  /** Called for a change dropped because a newer change of its key was seen; does nothing unless overridden. */
  default void stale(ChangeEvent dropped, Object newerSequence) {}

  /** Compares two sequences of one table (values of one column type, or source positions). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y && a.getClass() != b.getClass()) {
      return Long.compare(x.longValue(), y.longValue());
    }
    return ((Comparable) a).compareTo(b);
  }
}
