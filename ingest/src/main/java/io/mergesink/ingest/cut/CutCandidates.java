package io.mergesink.ingest.cut;

import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.transaction.KafkaTransactionEnds.EndListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The {@code END} events of the transaction topic in offset order, and the cut candidates among them:
 * the last {@code END} of each source-time bucket of {@code cut.interval.ms} ({@code ts_ms} floored to the
 * interval), known once an {@code END} of a later bucket follows it. Every task computes the same
 * candidates from the topic alone, so their commits meet at the same points without talking to each
 * other. A candidate is named by its {@code END}'s offset. An {@code END} of a transaction already read
 * (Debezium sends again what followed its last recorded position when its task restarts) is ignored:
 * the first one gives the transaction its place, and a later one, with an older time than the ends
 * before it, would move the transaction past cuts the task already committed it under. Fed by the
 * reader thread, read by the engine's: thread-safe. Keeps the newest {@value #MAX_ENDS} ends.
 */
public final class CutCandidates implements EndListener {
  static final int MAX_ENDS = 100_000;

  /** An {@code END} at {@code offset} of the transaction topic. */
  public record End(long offset, TransactionEvent event) {
    public String id() {
      return event.id();
    }
  }

  private final long intervalMs;
  private final NavigableMap<Long, End> ends = new TreeMap<>();
  private final Map<String, Long> offsets = new HashMap<>();
  private KafkaPartition topic;

  public CutCandidates(long intervalMs) {
    if (intervalMs <= 0) {
      throw new IllegalArgumentException("cut interval " + intervalMs + " ms, expected more than 0");
    }
    this.intervalMs = intervalMs;
  }

  @Override
  public synchronized void ended(KafkaPartition transactionTopic, long offset, TransactionEvent end) {
    if (topic == null) {
      topic = transactionTopic;
    } else if (!topic.equals(transactionTopic)) {
      return; // cuts follow one partition of one transaction topic (Debezium's has one)
    }
    if (offsets.containsKey(end.id())) {
      return; // sent again (Debezium resends from its last recorded position after a restart): the first places it
    }
    if (ends.putIfAbsent(offset, new End(offset, end)) == null) {
      offsets.put(end.id(), offset);
      while (ends.size() > MAX_ENDS) {
        offsets.remove(ends.pollFirstEntry().getValue().id());
      }
    }
  }

  /** The offset of transaction {@code id}'s {@code END}, if it was read. */
  public synchronized OptionalLong endOffset(String id) {
    Long offset = offsets.get(id);
    return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
  }

  /** The {@code END} at {@code offset}, if it was read. */
  public synchronized End end(long offset) {
    return ends.get(offset);
  }

  /** The ends read after offset {@code after} up to {@code through}, in offset order. */
  public synchronized List<End> ends(long after, long through) {
    return after >= through ? List.of() : new ArrayList<>(ends.subMap(after, false, through, true).values());
  }

  /** The candidates after offset {@code after}, oldest first. */
  public synchronized List<End> candidates(long after) {
    List<End> candidates = new ArrayList<>();
    End previous = null;
    for (End end : ends.tailMap(after, false).values()) {
      if (previous != null && bucket(end) != bucket(previous)) {
        candidates.add(previous);
      }
      previous = end;
    }
    return candidates;
  }

  /** Whether the {@code END} at {@code offset} is a candidate (false while no later {@code END} was read). */
  public synchronized boolean isCandidate(long offset) {
    End end = ends.get(offset);
    Map.Entry<Long, End> next = ends.higherEntry(offset);
    return end != null && next != null && bucket(next.getValue()) != bucket(end);
  }

  /** The transaction topic partition the ends come from, or null before the first. */
  public synchronized KafkaPartition topic() {
    return topic;
  }

  private long bucket(End end) {
    return Math.floorDiv(end.event().timestampMs(), intervalMs);
  }
}
