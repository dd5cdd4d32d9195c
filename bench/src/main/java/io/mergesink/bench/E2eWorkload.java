package io.mergesink.bench;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A stream of change events over a key space, as the e2e suite produces it: insert-only, or 90%
 * updates / 5% inserts / 5% deletes with updates picked uniformly or skewed (80% of updates hit
 * the first 10% of the keys ever inserted; inserts take fresh keys, deletes pick live keys
 * uniformly). Keeps which keys are live and each key's version. Not thread-safe.
 */
final class E2eWorkload {
  /** The shape of the stream, by its name on the command line ({@code --only}) and its label in the report. */
  enum Kind {
    INSERT_ONLY("insert-only", "insert-only"), MIXED_UNIFORM("uniform", "90/5/5 uniform"), MIXED_SKEWED("skewed", "90/5/5 skewed 80/10");

    private final String optionName;
    private final String label;

    Kind(String optionName, String label) {
      this.optionName = optionName;
      this.label = label;
    }

    String optionName() {
      return optionName;
    }

    String label() {
      return label;
    }

    static List<String> names() {
      return Arrays.stream(values()).map(Kind::optionName).toList();
    }

    /**
     * @throws IllegalArgumentException no workload has that name
     */
    static Kind of(String optionName) {
      for (Kind kind : values()) {
        if (kind.optionName.equals(optionName)) {
          return kind;
        }
      }
      throw new IllegalArgumentException("unknown workload '" + optionName + "', expected some of " + names());
    }
  }

  /** One change: {@code op} is {@code c}, {@code u} or {@code d}. */
  record Change(String op, long id, int version) {}

  private static final double UPDATE_SHARE = 0.90;
  private static final double INSERT_SHARE = 0.05;
  private static final double HOT_UPDATE_SHARE = 0.80;
  private static final double HOT_KEY_SHARE = 0.10;
  private static final int MAX_PICK_ATTEMPTS = 10_000;

  private final Kind kind;
  private final SplittableRandom random;
  private final BitSet live = new BitSet();
  private int[] versions = new int[1024];
  private long nextKey;
  private long liveCount;

  E2eWorkload(Kind kind, long seed) {
    this.kind = kind;
    this.random = new SplittableRandom(seed);
  }

  Kind kind() {
    return kind;
  }

  /** Keys inserted so far: ids {@code 0..insertedKeys()-1}. */
  long insertedKeys() {
    return nextKey;
  }

  long liveCount() {
    return liveCount;
  }

  boolean isLive(long id) {
    return id < nextKey && live.get(Math.toIntExact(id));
  }

  /** The version of {@code id}'s last change (inserts are version 1). */
  int version(long id) {
    return versions[Math.toIntExact(id)];
  }

  /** An insert of a fresh key (also how mixed workloads load their initial keys). */
  Change insert() {
    long id = nextKey++;
    live.set(Math.toIntExact(id));
    liveCount++;
    return new Change("c", id, bump(id));
  }

  /** The next change of this workload. */
  Change next() {
    if (kind == Kind.INSERT_ONLY) {
      return insert();
    }
    double dice = random.nextDouble();
    if (dice < UPDATE_SHARE) {
      long id = kind == Kind.MIXED_SKEWED && random.nextDouble() < HOT_UPDATE_SHARE ? pick(hotKeys()) : pick(nextKey);
      return new Change("u", id, bump(id));
    }
    if (dice < UPDATE_SHARE + INSERT_SHARE) {
      return insert();
    }
    long id = pick(nextKey);
    live.clear(Math.toIntExact(id));
    liveCount--;
    return new Change("d", id, bump(id));
  }

  private long hotKeys() {
    return Math.max(1, (long) (nextKey * HOT_KEY_SHARE));
  }

  /** A live key below {@code bound}. */
  private long pick(long bound) {
    for (int attempt = 0; attempt < MAX_PICK_ATTEMPTS; attempt++) {
      int id = (int) random.nextLong(bound);
      if (live.get(id)) {
        return id;
      }
    }
    throw new IllegalStateException("no live key below " + bound + " in " + MAX_PICK_ATTEMPTS + " attempts; load keys first");
  }

  private int bump(long id) {
    int index = Math.toIntExact(id);
    if (index >= versions.length) {
      versions = Arrays.copyOf(versions, Math.max(versions.length * 2, index + 1));
    }
    return ++versions[index];
  }
}
