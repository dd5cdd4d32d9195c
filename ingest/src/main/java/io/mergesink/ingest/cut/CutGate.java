package io.mergesink.ingest.cut;

import io.mergesink.ingest.cut.CutCandidates.End;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.SourceInfo;
import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.transaction.SourceTable;
import io.mergesink.ingest.transaction.TableEventCounts;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's side of consistent cuts (docs/transactions.md, "Consistent cuts"): before each flush,
 * {@link #advance} picks the newest {@linkplain CutCandidates candidate} the task has read every change of
 * (for each source table it has seen changes of, as many events of each transaction up to the
 * candidate as the transaction's {@code END} counts); buffers then seal transactions that end at or
 * before it only ({@link #withinCut}), so the flush commits every partition up to the candidate and no
 * further, and each commit carries the candidate in tag {@value #CUT_TAG} ({@link #tags}) with the
 * source tables the table holds changes of in {@value #SOURCES_TAG}.
 *
 * <p>A transaction sealed past the cut because it outgrew a buffer ({@link #forced}) suspends the tags
 * until a candidate at or after its end: the commits between hold part of what follows the cut.
 * Changes of a source table read before the task first saw it (before a restart) are in the tables
 * already. Wraps the {@link TransactionEnds} buffers ask; engine thread only, apart from the ends it wraps.
 */
public final class CutGate implements TransactionEnds {
  private static final Logger LOG = LoggerFactory.getLogger(CutGate.class);
  /** Commit tag: the offset of the {@code END} of the candidate the commit's task committed up to. */
  public static final String CUT_TAG = "mergesink.cut";
  /** Commit tag: the source tables ({@link SourceTable#qualifiedName()}, comma-separated) whose changes the table holds. */
  public static final String SOURCES_TAG = "mergesink.sourceTables";
  private static final long NONE = -1;
  private static final Duration HELD_BACK_WARNING = Duration.ofMinutes(1);

  private final TransactionEnds ends;
  private final CutCandidates candidates;
  private final ToLongFunction<KafkaPartition> processed;
  /** Transaction id → its events read, by source table, for transactions that end after the cut. */
  private final Map<String, TableEventCounts> read = new HashMap<>();
  /** Source table → the id of the first transaction read of it (what ends before that is in the tables). */
  private final Map<SourceTable, String> firstRead = new LinkedHashMap<>();
  private final Map<String, Set<SourceTable>> tableSources = new HashMap<>();
  /** Source table → the partitions the task read its changes from and still holds. */
  private final Map<SourceTable, Set<KafkaPartition>> sourcePartitions = new HashMap<>();
  /** The partitions the task holds. */
  private final Set<KafkaPartition> held = new HashSet<>();
  /** Held partition → the id of the first transaction read from it (what ends before that is in the tables, of it). */
  private final Map<KafkaPartition, String> firstReadIn = new HashMap<>();
  private final Set<String> forced = new HashSet<>();
  /** Topics of sources read whose partitions the task holds only some of, as of the last {@link #advance}. */
  private Set<String> splitTopics = Set.of();
  private long cut = NONE;
  private long newestRead;
  private volatile long lagMillis;
  /** When the cut last had nothing left to wait for, and when a warning last said what it waits for (nano time). */
  private long heldBackSince = System.nanoTime();
  private long heldBackWarned = heldBackSince - HELD_BACK_WARNING.toNanos();

  /**
   * @param ends where transactions end; closed with this gate
   * @param processed the offset of the last record processed of a partition the task holds
   */
  public CutGate(TransactionEnds ends, CutCandidates candidates, ToLongFunction<KafkaPartition> processed) {
    this.ends = ends;
    this.candidates = candidates;
    this.processed = processed;
  }

  @Override
  public Optional<TransactionEvent> end(String id) {
    return ends.end(id);
  }

  @Override
  public void follow(KafkaPartition partition, long timestampMs) {
    ends.follow(partition, timestampMs);
  }

  @Override
  public OptionalInt partitionCount(String topic) {
    return ends.partitionCount(topic);
  }

  @Override
  public boolean withinCut(String id) {
    OptionalLong end = candidates.endOffset(id);
    return end.isPresent() && end.getAsLong() <= cut;
  }

  @Override
  public boolean holdsPastCut() {
    return true;
  }

  @Override
  public void close() {
    ends.close();
  }

  /** {@code event}, routed to {@code table}, was read (buffered or not): counts it towards its transaction. */
  public void read(String table, ChangeEvent event) {
    if (event.transaction() == null || event.source() == SourceInfo.NONE) {
      return;
    }
    newestRead = Math.max(newestRead, event.timestampMs());
    SourceTable source = SourceTable.of(event.source());
    read.computeIfAbsent(event.transaction().id(), id -> new TableEventCounts()).add(source, event.transaction().dataCollectionOrder());
    firstRead.putIfAbsent(source, event.transaction().id());
    KafkaPartition partition = new KafkaPartition(event.topic(), event.partition());
    sourcePartitions.computeIfAbsent(source, partitions -> new HashSet<>()).add(partition);
    held.add(partition);
    firstReadIn.putIfAbsent(partition, event.transaction().id());
    tableSources.computeIfAbsent(table, name -> new TreeSet<>(Comparator.comparing(SourceTable::qualifiedName)))
        .add(source);
  }

  /** The task holds {@code partitions} from now on, read from where their tables stand. */
  public void opened(Collection<KafkaPartition> partitions) {
    held.addAll(partitions);
  }

  /**
   * The task no longer holds {@code partitions} (a rebalance): a source table whose changes came from
   * them only is no longer the task's to wait for. Its next owner reads it from where its table stands.
   */
  public void released(Collection<KafkaPartition> partitions) {
    held.removeAll(partitions);
    firstReadIn.keySet().removeAll(partitions);
    for (Iterator<Map.Entry<SourceTable, Set<KafkaPartition>>> held = sourcePartitions.entrySet().iterator(); held.hasNext();) {
      Map.Entry<SourceTable, Set<KafkaPartition>> source = held.next();
      source.getValue().removeAll(partitions);
      if (source.getValue().isEmpty()) {
        held.remove();
        firstRead.remove(source.getKey());
        read.values().forEach(counts -> counts.remove(source.getKey()));
        tableSources.values().forEach(sources -> sources.remove(source.getKey()));
      }
    }
    tableSources.values().removeIf(Set::isEmpty);
  }

  /** Transactions {@code ids} were sealed past the cut (larger than a buffer): no tags until a candidate after their ends. */
  public void forced(Set<String> ids) {
    ids.stream().filter(id -> !withinCut(id)).forEach(forced::add);
  }

  /** The source time from the cut to the newest change of a transaction read; may be read from any thread. */
  public long lagMillis() {
    return lagMillis;
  }

  /** Moves the cut to the newest candidate whose changes the task has all read; returns it (-1: none yet). */
  public long advance() {
    splitTopics = splitTopics();
    long checked = cut;
    Optional<String> heldBack = Optional.empty();
    for (End candidate : candidates.candidates(cut)) {
      long after = checked;
      heldBack = partitionBehind(candidate)
          .or(() -> candidates.ends(after, candidate.offset()).stream().map(this::unread).flatMap(Optional::stream).findFirst());
      if (heldBack.isPresent()) {
        break;
      }
      checked = candidate.offset();
      moveTo(candidate.offset());
    }
    warnIfHeldBack(heldBack);
    End at = cut == NONE ? null : candidates.end(cut);
    lagMillis = at == null ? 0 : Math.max(0, newestRead - at.event().timestampMs());
    return cut;
  }

  /** The cut the next flush commits up to; -1 before the first. */
  public long cut() {
    return cut;
  }

  /** The tags of a commit of {@code table} up to the cut; none while a transaction sealed past it is not behind it. */
  public Map<String, String> tags(String table) {
    Set<SourceTable> sources = tableSources.get(table);
    if (cut == NONE || !forced.isEmpty() || sources == null || sources.stream().anyMatch(this::split)) {
      return Map.of();
    }
    return Map.of(CUT_TAG, Long.toString(cut),
        SOURCES_TAG, String.join(",", sources.stream().map(SourceTable::qualifiedName).toList()));
  }

  /** Warns, at most once a minute, while a candidate has waited more than a minute for changes the task has not read. */
  private void warnIfHeldBack(Optional<String> reason) {
    long now = System.nanoTime();
    if (reason.isEmpty()) {
      heldBackSince = now;
    } else if (now - heldBackSince > HELD_BACK_WARNING.toNanos() && now - heldBackWarned > HELD_BACK_WARNING.toNanos()) {
      heldBackWarned = now;
      LOG.warn("The consistent cut has stayed at transaction topic offset {} for {} s: {}", cut,
          TimeUnit.NANOSECONDS.toSeconds(now - heldBackSince), reason.get());
    }
  }

  private void moveTo(long offset) {
    cut = offset;
    read.keySet().removeIf(this::withinCut);
    forced.removeIf(this::withinCut);
  }

  /** Whether the task holds only some partitions of a topic {@code source}'s changes come from. */
  private boolean split(SourceTable source) {
    return !splitTopics.isEmpty()
        && sourcePartitions.getOrDefault(source, Set.of()).stream().anyMatch(partition -> splitTopics.contains(partition.topic()));
  }

  /**
   * The topics of the sources read whose partitions the task holds only some of (Kafka's assignors
   * spread a topic of several partitions over tasks). Such a topic's tables cannot hold whole
   * transactions, since another task commits the rest of their events: they are left out of cuts (no
   * tags, so no cut is published while they are) instead of holding the task's cut back for good.
   */
  private Set<String> splitTopics() {
    Map<String, Integer> heldOfTopic = new HashMap<>();
    sourcePartitions.values().forEach(partitions -> partitions.forEach(partition -> heldOfTopic.put(partition.topic(), 0)));
    held.stream().filter(partition -> heldOfTopic.containsKey(partition.topic()))
        .forEach(partition -> heldOfTopic.merge(partition.topic(), 1, Integer::sum));
    Set<String> split = new HashSet<>();
    heldOfTopic.forEach((topic, count) -> ends.partitionCount(topic).ifPresent(partitions -> {
      if (count < partitions) {
        split.add(topic);
        if (!splitTopics.contains(topic)) {
          LOG.warn("This task holds {} of the {} partitions of topic {}; other tasks hold the rest. Its tables are left out of "
              + "consistent cuts (no cut is published) and their commits may hold part of a source transaction. Keep each "
              + "topic's partitions in one task (Kafka Connect: consumer.override.partition.assignment.strategy="
              + "io.mergesink.connect.WholeTopicAssignor)", count, partitions, topic);
        }
      }
    }));
    splitTopics.stream().filter(topic -> !split.contains(topic))
        .forEach(topic -> LOG.info("This task holds every partition of topic {} again: its tables are in consistent cuts", topic));
    return split;
  }

  /**
   * Whether {@code end} comes before the first transaction read from each partition the task holds of the
   * topics {@code source}'s changes come from; empty while one of them has not given a transaction yet or
   * the end of its first is not read. The tables stand at one cut in all partitions of a topic when the
   * task opens them: a transaction with a change read after that stood past it, so all its changes are
   * still to be read, and one that ends before the first read in every partition is in the tables. A
   * topic of several partitions delivers them unevenly, so the first read of one says nothing of another.
   */
  private Optional<Boolean> beforeFirstRead(SourceTable source, End end) {
    Set<String> topics = new HashSet<>();
    sourcePartitions.getOrDefault(source, Set.of()).forEach(partition -> topics.add(partition.topic()));
    boolean unread = false;
    for (KafkaPartition partition : held) {
      if (!topics.contains(partition.topic())) {
        continue;
      }
      String first = firstReadIn.get(partition);
      if (first == null) {
        unread = true;
        continue;
      }
      OptionalLong firstEnd = candidates.endOffset(first);
      if (firstEnd.isEmpty()) {
        return Optional.empty();
      }
      if (end.offset() >= firstEnd.getAsLong()) {
        return Optional.of(false);
      }
    }
    return unread ? Optional.empty() : Optional.of(true);
  }

  /**
   * A partition the task holds that gave no transaction yet and is not read up to the end offset it had
   * once {@code candidate}'s {@code END} was read: it may hold changes of transactions up to the candidate
   * the consumer has not delivered yet (a backlog after a start, while the transaction topic is read
   * ahead). A partition read to that end offset holds none (an idle table's).
   */
  private Optional<String> partitionBehind(End candidate) {
    for (KafkaPartition partition : held) {
      if (firstReadIn.containsKey(partition) || partition.equals(candidates.topic())) {
        continue;
      }
      OptionalLong end = ends.endOffsetAfter(partition, candidate.offset());
      long read = processed.applyAsLong(partition);
      if (end.isEmpty() || read + 1 < end.getAsLong()) {
        return Optional.of("partition " + partition + " gave no transaction yet and is read up to offset " + read
            + (end.isEmpty() ? ", its end offset after transaction " + candidate.id() + " not known yet"
                : " of " + end.getAsLong() + " after transaction " + candidate.id()));
      }
    }
    return Optional.empty();
  }

  /**
   * What of {@code end}'s transaction the task has not read, of the source tables it read changes of;
   * empty when it read every event. A source whose topic the task holds in part is left out: another
   * task reads the rest.
   */
  private Optional<String> unread(End end) {
    TableEventCounts counted = read.getOrDefault(end.id(), new TableEventCounts());
    for (Map.Entry<SourceTable, String> source : firstRead.entrySet()) {
      if (split(source.getKey())) {
        continue;
      }
      Optional<Boolean> before = beforeFirstRead(source.getKey(), end);
      if (before.isEmpty()) {
        // not known yet whether its changes of this source are in the tables or still to come
        return Optional.of("whether transaction " + end.id() + " changed " + source.getKey().qualifiedName()
            + " before the first transaction read from each partition (" + firstReads(source.getKey()) + ") is not known yet");
      }
      if (before.get()) {
        continue; // before the first transaction read of this source: its changes were in the tables already
      }
      for (Map.Entry<String, Long> count : end.event().tableCounts().entrySet()) {
        long changes = counted.count(source.getKey());
        if (source.getKey().isNamed(count.getKey()) && changes < count.getValue()) {
          return Optional.of(changes + " of the " + count.getValue() + " changes of " + source.getKey().qualifiedName()
              + " in transaction " + end.id() + " read");
        }
      }
    }
    return Optional.empty();
  }

  /** For each partition the task holds of {@code source}'s topics, the first transaction read from it and whether its end was read. */
  private String firstReads(SourceTable source) {
    Set<String> topics = new HashSet<>();
    sourcePartitions.getOrDefault(source, Set.of()).forEach(partition -> topics.add(partition.topic()));
    return String.join(", ", held.stream().filter(partition -> topics.contains(partition.topic())).sorted(
        Comparator.comparing(KafkaPartition::toString)).map(partition -> {
          String first = firstReadIn.get(partition);
          return partition + ": " + (first == null ? "none yet"
              : first + (candidates.endOffset(first).isPresent() ? "" : ", its end not read"));
        }).toList());
  }

}
