package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.commit.TxnChange;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;

/**
 * The Kafka positions an Iceberg table accounts for (docs/iceberg.md, "Exactly once"): each
 * MergeSink commit records in its snapshot summary the position of every partition the table
 * accounts for, those it did not move carried forward from the newest snapshot that records them.
 * Snapshots of other engines (a compaction) record none, so the positions are those of the newest
 * snapshot in the ancestry that records any. Public for tools that show a table's history (the CLI).
 */
public final class SnapshotPositions {
  /** Summary key prefix of a position: {@code mergesink.position.<id>} = the last offset the table holds. */
  public static final String PREFIX = "mergesink.position.";
  /** Summary key prefix of a commit tag. */
  public static final String TAG_PREFIX = "mergesink.tag.";

  private SnapshotPositions() {}

  /** The positions recorded by the newest snapshot of {@code ancestry} (newest first) that records any. */
  public static Map<String, Long> of(Iterable<Snapshot> ancestry) {
    for (Snapshot snapshot : ancestry) {
      Map<String, Long> positions = recordedBy(snapshot);
      if (!positions.isEmpty()) {
        return positions;
      }
    }
    return Map.of();
  }

  /** The positions {@code snapshot} records in its summary: empty for a snapshot of another engine. */
  public static Map<String, Long> recordedBy(Snapshot snapshot) {
    Map<String, Long> positions = new TreeMap<>();
    snapshot.summary().forEach((key, value) -> {
      if (key.startsWith(PREFIX)) {
        positions.put(key.substring(PREFIX.length()), Long.parseLong(value));
      }
    });
    return positions;
  }

  /**
   * The compare-and-set of a commit's positions, checked by Iceberg against the parent the commit
   * lands on (again on each of its retries): every position the commit moves must be where it
   * expects, and every other position where it carries it forward from.
   */
  static final class Check implements SnapshotAncestryValidator {
    private final Map<String, TxnChange> moves;
    private final Map<String, Long> carried;
    private String fenced;
    private OptionalLong fencedAt = OptionalLong.empty();
    private boolean stale;

    /**
     * @param moves the positions the commit moves, with what it expects
     * @param carried the positions the commit records: the ones it moves at their new offset, the others as it read them
     */
    Check(Map<String, TxnChange> moves, Map<String, Long> carried) {
      this.moves = Map.copyOf(moves);
      this.carried = Map.copyOf(carried);
    }

    @Override
    public boolean validate(Iterable<Snapshot> baseSnapshots) {
      Map<String, Long> found = of(baseSnapshots);
      for (Map.Entry<String, TxnChange> move : moves.entrySet()) {
        Long at = found.get(move.getKey());
        OptionalLong now = at == null ? OptionalLong.empty() : OptionalLong.of(at);
        if (!now.equals(move.getValue().expected())) {
          fenced = move.getKey();
          fencedAt = now;
          return false;
        }
      }
      for (Map.Entry<String, Long> other : found.entrySet()) {
        if (!moves.containsKey(other.getKey()) && !other.getValue().equals(carried.get(other.getKey()))) {
          stale = true;
          return false;
        }
      }
      return true;
    }

    @Override
    public String errorMessage() {
      return fenced != null ? "position " + fenced + " is at " + fencedAt + ", not where this writer expects it"
          : "another writer moved positions this commit carries forward";
    }

    /** The position found elsewhere than expected, or null. */
    String fenced() {
      return fenced;
    }

    /** Where {@link #fenced()} was found. */
    OptionalLong fencedAt() {
      return fencedAt;
    }

    /** Whether another writer moved a position this commit carries forward: record them anew and commit again. */
    boolean stale() {
      return stale;
    }
  }
}
