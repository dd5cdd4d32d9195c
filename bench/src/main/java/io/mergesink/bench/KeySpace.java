package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * The live keys of one or more tables that receive the same changes, and a generator of coalesced
 * change sets over them (at most one change per key). Keys {@code 0..n-1} are the initial rows;
 * inserts take fresh keys from {@code n} on. Not thread-safe.
 */
public final class KeySpace {
  private static final int MAX_PICK_ATTEMPTS = 1_000;

  private final BitSet live = new BitSet();
  private final SplittableRandom random;
  private long nextKey;
  private long liveCount;
  private int revision;

  public KeySpace(long seed) {
    this.random = new SplittableRandom(seed);
  }

  public long liveCount() {
    return liveCount;
  }

  /**
   * Inserts of {@code count} fresh keys, for building a table. The keys are live from now on.
   */
  public ChangeSet inserts(int count) {
    ChangeSet.Builder changes = ChangeSet.builder();
    revision++;
    for (int i = 0; i < count; i++) {
      changes.upsert(CdcRows.row(insertKey(), revision));
    }
    return changes.build();
  }

  /**
   * A coalesced batch of {@code changes} changes: {@code updateShare} updates of random live keys,
   * {@code insertShare} inserts of fresh keys, the rest deletes of random live keys. The key space
   * reflects the batch as if it were committed.
   */
  public ChangeSet mixed(int changes, double updateShare, double insertShare) {
    int updates = (int) Math.round(changes * updateShare);
    int inserts = (int) Math.round(changes * insertShare);
    int deletes = changes - updates - inserts;
    if (updates < 0 || inserts < 0 || deletes < 0 || updates + deletes > liveCount) {
      throw new IllegalArgumentException("cannot make " + updates + " updates, " + inserts + " inserts and " + deletes
          + " deletes over " + liveCount + " live keys");
    }
    revision++;
    BitSet picked = new BitSet();
    ChangeSet.Builder batch = ChangeSet.builder();
    for (int i = 0; i < updates; i++) {
      batch.upsert(CdcRows.row(pickUnused(picked), revision));
    }
    for (int i = 0; i < deletes; i++) {
      long key = pickUnused(picked);
      batch.delete(CdcRows.key(key));
      live.clear(Math.toIntExact(key));
      liveCount--;
    }
    for (int i = 0; i < inserts; i++) {
      batch.upsert(CdcRows.row(insertKey(), revision));
    }
    return batch.build();
  }

  private long insertKey() {
    long key = nextKey++;
    live.set(Math.toIntExact(key));
    liveCount++;
    return key;
  }

  /** A random live key not yet picked for this batch. */
  private long pickUnused(BitSet picked) {
    for (int attempt = 0; attempt < MAX_PICK_ATTEMPTS; attempt++) {
      int key = (int) random.nextLong(nextKey);
      if (live.get(key) && !picked.get(key)) {
        picked.set(key);
        return key;
      }
    }
    throw new IllegalStateException("no unused live key found in " + MAX_PICK_ATTEMPTS + " attempts; " + liveCount
        + " live keys of " + nextKey);
  }
}
