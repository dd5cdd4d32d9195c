package io.mergesink.ingest.position;

import io.mergesink.core.commit.TxnChange;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The exactly-once rule of a task, in one place (docs/design.md, "Exactly once"). Every table
 * records, per Kafka partition it has rows of, a txn version: the last offset of that partition it
 * accounts for. This class keeps, for each partition of the task, what every table it feeds holds
 * and how far the task has read, and from that decides:
 *
 * <ul>
 *   <li><b>recovery</b>: a partition resumes after the lowest version of the tables it feeds
 *       ({@link #open}); the tables that hold more skip what they hold ({@link #isReplay});
 *   <li><b>anchors</b>: a partition feeding several tables gets, in each table that holds no
 *       version of it yet, a txn-only commit at its last committed position before any table records
 *       a newer one, so that the lowest version stays a safe place to resume ({@link #plan});
 *   <li><b>what each commit expects</b>: every txn a flush commits is a compare-and-set
 *       ({@link TxnChange}) from the version this task knows the table holds; a table holding
 *       another one means another task took the partition over, and the merge-core committer
 *       refuses the commit ({@code FencedException});
 *   <li><b>rewind after fencing</b>: a fenced partition starts over from what its tables hold now
 *       ({@link #rewind}), and its records are ignored until the consumer has gone back there
 *       ({@link #seeksApplied}).
 * </ul>
 *
 * No I/O: the engine reads the tables' versions and executes the plans. Not thread-safe.
 */
public final class PartitionPositions {
  /** No offset: nothing of the partition processed or committed yet. */
  public static final long NO_OFFSET = -1L;

  private final TxnAppIds appIds;
  private final Map<KafkaPartition, Position> positions = new LinkedHashMap<>();

  public PartitionPositions(TxnAppIds appIds) {
    this.appIds = appIds;
  }

  /**
   * Takes over {@code partition}, whose tables hold {@code held} (table → txn version; empty when no
   * table holds one).
   *
   * @return the offset to consume next: after the lowest version held; empty when no table holds
   *     one (the consumer starts where its own position is). Until {@link #seeksApplied}, records
   *     of the partition are not accepted.
   */
  public OptionalLong open(KafkaPartition partition, Map<String, Long> held) {
    Position position = new Position(appIds.of(partition), held);
    positions.put(partition, position);
    return position.resumeAt();
  }

  /**
   * Starts {@code partition} over after another task fenced this one: what was read and not committed
   * is forgotten, and the partition resumes from what its tables hold now, as at {@link #open}.
   */
  public OptionalLong rewind(KafkaPartition partition, Map<String, Long> held) {
    return open(partition, held);
  }

  /** Forgets {@code partition} (another task owns it now). */
  public void release(KafkaPartition partition) {
    positions.remove(partition);
  }

  public boolean holds(KafkaPartition partition) {
    return positions.containsKey(partition);
  }

  /** The partitions held, in the order they were opened. */
  public Set<KafkaPartition> partitions() {
    return positions.keySet();
  }

  /** The partition whose txn app id is {@code appId}, if this task holds it. */
  public Optional<KafkaPartition> partitionOf(String appId) {
    return positions.entrySet().stream().filter(entry -> entry.getValue().appId.equals(appId)).map(Map.Entry::getKey).findFirst();
  }

  /** The consumer delivers from the offsets asked for: records of every partition are accepted again. */
  public void seeksApplied() {
    positions.values().forEach(position -> position.awaitingSeek = false);
  }

  /**
   * Whether the record at {@code offset} is new to this task: its partition is not waiting for a
   * seek and the offset is after the last one processed (a redelivered batch repeats offsets).
   */
  public boolean accepts(KafkaPartition partition, long offset) {
    Position position = position(partition);
    return !position.awaitingSeek && offset > position.processed;
  }

  /** Whether {@code table} already holds the record at {@code offset} of {@code partition}. */
  public boolean isReplay(KafkaPartition partition, String table, long offset) {
    Long held = position(partition).held.get(table);
    return held != null && offset <= held;
  }

  /**
   * The offset of the last record of {@code partition} processed, or, before the first one, the
   * last one its tables all hold ({@link #NO_OFFSET} when none does).
   */
  public long lastProcessed(KafkaPartition partition) {
    return position(partition).processed;
  }

  /**
   * The record at {@code offset} is processed: buffered, or known to change nothing (skipped,
   * replayed, set aside as bad). The position covers it from now on.
   *
   * @throws IllegalArgumentException the offset is not after the last one processed
   */
  public void processed(KafkaPartition partition, long offset) {
    Position position = position(partition);
    if (offset <= position.processed) {
      throw new IllegalArgumentException("offset " + offset + " of " + partition + " is not after the last processed offset "
          + position.processed);
    }
    if (position.processed == NO_OFFSET && position.committed == NO_OFFSET) {
      position.start = offset - 1;
    }
    position.processed = offset;
  }

  /** Whether {@code partition} was read past what its tables hold (there is something to commit, if only a txn). */
  public boolean hasUncommitted(KafkaPartition partition) {
    Position position = position(partition);
    return position.processed != position.committed;
  }

  /**
   * What a flush commits for the partitions read past their tables' positions: first the anchors,
   * then one commit per table with the txn of every such partition it holds or gets changes of.
   *
   * @param pendingTables for each partition, the tables it has buffered changes for
   */
  public FlushPlan plan(Map<KafkaPartition, Set<String>> pendingTables) {
    return plan(pendingTables, Set.of());
  }

  /**
   * As {@link #plan(Map)}, leaving {@code deferred} partitions out: they take part in no commit and
   * their positions stay where they are.
   */
  public FlushPlan plan(Map<KafkaPartition, Set<String>> pendingTables, Set<KafkaPartition> deferred) {
    return plan(pendingTables, deferred, Map.of());
  }

  /**
   * As {@link #plan(Map, Set)}, committing each partition of {@code cuts} up to its cut at most: the
   * last offset its buffer's sealed part accounts for (the rest belongs to a source transaction not
   * yet complete, and is read again from there after a restart).
   */
  public FlushPlan plan(Map<KafkaPartition, Set<String>> pendingTables, Set<KafkaPartition> deferred, Map<KafkaPartition, Long> cuts) {
    List<TableTxns> anchors = new ArrayList<>();
    Map<String, Map<KafkaPartition, TxnChange>> commits = new LinkedHashMap<>();
    Map<KafkaPartition, Long> flushedTo = new LinkedHashMap<>();
    for (Map.Entry<KafkaPartition, Position> entry : positions.entrySet()) {
      KafkaPartition partition = entry.getKey();
      Position position = entry.getValue();
      long upTo = Math.min(position.processed, cuts.getOrDefault(partition, position.processed));
      if (upTo <= position.committed || deferred.contains(partition)) {
        continue;
      }
      Set<String> tables = new LinkedHashSet<>(pendingTables.getOrDefault(partition, Set.of()));
      tables.addAll(position.held.keySet());
      Map<String, Long> anchored = new HashMap<>();
      if (tables.size() > 1) {
        for (String table : tables) {
          if (!position.held.containsKey(table)) {
            long anchor = position.committed == NO_OFFSET ? position.start : position.committed;
            anchors.add(new TableTxns(table, Map.of(partition, TxnChange.first(anchor))));
            anchored.put(table, anchor);
          }
        }
      }
      for (String table : tables) {
        Long held = position.held.get(table);
        if (held != null && held >= upTo) {
          continue; // ahead of the partition (a crash came between two tables' commits): replays are skipped there
        }
        Long expected = anchored.containsKey(table) ? anchored.get(table) : held;
        TxnChange change = new TxnChange(expected == null ? OptionalLong.empty() : OptionalLong.of(expected), upTo);
        commits.computeIfAbsent(table, name -> new LinkedHashMap<>()).put(partition, change);
      }
      flushedTo.put(partition, upTo);
    }
    List<TableTxns> tableCommits = new ArrayList<>();
    commits.forEach((table, txns) -> tableCommits.add(new TableTxns(table, txns)));
    return new FlushPlan(anchors, tableCommits, flushedTo);
  }

  /** {@code table} committed {@code txns}: it holds their versions now. */
  public void landed(String table, Map<KafkaPartition, TxnChange> txns) {
    txns.forEach((partition, change) -> {
      Position position = positions.get(partition);
      if (position != null) {
        position.held.put(table, change.version());
      }
    });
  }

  /** Every table {@code partition} feeds holds it up to {@code offset}: the consumer group may commit that. */
  public void flushed(KafkaPartition partition, long offset) {
    Position position = position(partition);
    position.committed = Math.max(position.committed, offset);
  }

  /** For each partition, the offset after the last record all its tables hold (what the consumer group may commit). */
  public Map<KafkaPartition, Long> committedOffsets() {
    Map<KafkaPartition, Long> offsets = new LinkedHashMap<>();
    positions.forEach((partition, position) -> {
      if (position.committed != NO_OFFSET) {
        offsets.put(partition, position.committed + 1);
      }
    });
    return offsets;
  }

  /** The txn app id of {@code partition}. */
  public String appId(KafkaPartition partition) {
    return appIds.of(partition);
  }

  /** The txn app ids of {@code partitions}. */
  public List<String> appIds(Collection<KafkaPartition> partitions) {
    return partitions.stream().map(appIds::of).toList();
  }

  private Position position(KafkaPartition partition) {
    Position position = positions.get(partition);
    if (position == null) {
      throw new IllegalStateException(partition + " is not held by this task");
    }
    return position;
  }

  /** One partition's position: what each table holds, what was read, what is committed everywhere. */
  private static final class Position {
    final String appId;
    /** Table → the txn version it holds, as far as this task knows (what it read at open and committed since). */
    final Map<String, Long> held;
    long processed;
    long committed;
    /** Before the first record read, for a partition no table held: where its anchors go. */
    long start = NO_OFFSET;
    boolean awaitingSeek;

    Position(String appId, Map<String, Long> held) {
      this.appId = appId;
      this.held = new HashMap<>(held);
      long lowest = held.values().stream().mapToLong(Long::longValue).min().orElse(NO_OFFSET);
      this.processed = lowest;
      this.committed = lowest;
      this.awaitingSeek = !held.isEmpty();
    }

    OptionalLong resumeAt() {
      return held.isEmpty() ? OptionalLong.empty() : OptionalLong.of(committed + 1);
    }
  }
}
