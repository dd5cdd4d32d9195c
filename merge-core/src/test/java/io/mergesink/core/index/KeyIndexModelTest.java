package io.mergesink.core.index;

import static io.mergesink.core.index.KeyIndexTest.schema;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Grows an index to 1M keys and applies random puts, removes, replaces, upserts (replace, or
 * removes + put) and file drops, comparing every answer with a {@code HashMap<Row, Set<Long>>}.
 */
class KeyIndexModelTest {
  private static final long SEED = Long.getLong("keyIndexModel.seed", 20_250_601L);
  private static final int INITIAL_KEYS = 1_000_000;
  private static final int KEY_SPACE = 1_100_000;
  private static final int OPERATIONS = 600_000;
  private static final int FILES = 2_000;
  private static final int DUPLICATE_EVERY = 100;
  private static final int REMOVE_FILE_EVERY = 100_000;

  @Test
  void bigintKeysMatchTheModel() {
    // Scrambled so that keys are not sequential (a bijection on long).
    run(schema(PrimitiveType.LONG), i -> Row.of(i * 0x9E37_79B9_7F4A_7C15L));
  }

  @Test
  void compositeIntStringKeysMatchTheModel() {
    run(schema(PrimitiveType.INTEGER, PrimitiveType.STRING), i -> Row.of(i % 1_000, "customer-" + i));
  }

  private static void run(StructType keySchema, IntFunction<Row> keyOf) {
    String where = keySchema + ", seed " + SEED + " (-DkeyIndexModel.seed=…)";
    Random random = new Random(SEED);
    KeyIndex index = KeyIndex.create(keySchema);
    Map<Row, Set<Long>> model = new HashMap<>();
    long nextRow = 0;
    for (int i = 0; i < INITIAL_KEYS; i++) {
      Row key = keyOf.apply(i);
      put(index, model, key, RowLocation.pack(random.nextInt(FILES), nextRow++));
      if (i % DUPLICATE_EVERY == 0) {
        put(index, model, key, RowLocation.pack(random.nextInt(FILES), nextRow++));
      }
    }
    assertThat(index.keyCount()).as(where).isEqualTo(INITIAL_KEYS);
    assertThat(index.size()).as(where).isEqualTo(sizeOf(model));

    for (int op = 0; op < OPERATIONS; op++) {
      Row key = keyOf.apply(random.nextInt(KEY_SPACE));
      Set<Long> expected = model.getOrDefault(key, Set.of());
      int choice = random.nextInt(100);
      if (choice < 30) {
        assertThat(sorted(index.locations(key))).as("locations of %s at op %d, %s", key, op, where)
            .isEqualTo(sorted(expected));
        assertThat(index.lookup(key)).as("lookup of %s at op %d, %s", key, op, where).isEqualTo(
            expected.isEmpty() ? KeyIndex.NO_LOCATION
                : expected.size() == 1 ? expected.iterator().next() : KeyIndex.MULTIPLE_LOCATIONS);
      } else if (choice < 45) {
        // upsert as the planner does it: a single old row is replaced, several are removed first
        long location = RowLocation.pack(random.nextInt(FILES), nextRow++);
        if (expected.size() == 1) {
          replace(index, model, key, expected.iterator().next(), location);
        } else {
          for (long old : new ArrayList<>(expected)) {
            remove(index, model, key, old);
          }
          put(index, model, key, location);
        }
      } else if (choice < 55) {
        // replace in general: the replaced location may be one of several, or not there at all
        long replaced = !expected.isEmpty() && random.nextBoolean() ? expected.iterator().next()
            : RowLocation.pack(random.nextInt(FILES), random.nextInt(1_000));
        replace(index, model, key, replaced, RowLocation.pack(random.nextInt(FILES), nextRow++));
      } else if (choice < 75) {
        put(index, model, key, RowLocation.pack(random.nextInt(FILES), nextRow++));
      } else if (choice < 90 && !expected.isEmpty()) {
        remove(index, model, key, expected.iterator().next());
      } else {
        remove(index, model, key, RowLocation.pack(random.nextInt(FILES), random.nextInt(1_000)));
      }
      if (op % REMOVE_FILE_EVERY == REMOVE_FILE_EVERY - 1) {
        int fileId = random.nextInt(FILES);
        index.removeFile(fileId);
        removeFile(model, fileId);
        assertThat(index.size()).as("size after removeFile(%d) at op %d, %s", fileId, op, where)
            .isEqualTo(sizeOf(model));
      }
    }

    assertThat(index.size()).as(where).isEqualTo(sizeOf(model));
    assertThat(index.keyCount()).as(where).isEqualTo(model.size());
    for (int i = 0; i < KEY_SPACE; i++) {
      Row key = keyOf.apply(i);
      assertThat(sorted(index.locations(key))).as("final locations of %s, %s", key, where)
          .isEqualTo(sorted(model.getOrDefault(key, Set.of())));
    }
  }

  private static void put(KeyIndex index, Map<Row, Set<Long>> model, Row key, long location) {
    index.put(key, location);
    model.computeIfAbsent(key, k -> new HashSet<>(2)).add(location);
  }

  private static void remove(KeyIndex index, Map<Row, Set<Long>> model, Row key, long location) {
    index.remove(key, location);
    Set<Long> locations = model.get(key);
    if (locations != null && locations.remove(location) && locations.isEmpty()) {
      model.remove(key);
    }
  }

  /** {@link KeyIndex#replace}, which must equal a remove of {@code replaced} followed by a put. */
  private static void replace(KeyIndex index, Map<Row, Set<Long>> model, Row key, long replaced, long location) {
    index.replace(key, replaced, location);
    Set<Long> locations = model.get(key);
    if (locations != null && locations.remove(replaced) && locations.isEmpty()) {
      model.remove(key);
    }
    model.computeIfAbsent(key, k -> new HashSet<>(2)).add(location);
  }

  private static void removeFile(Map<Row, Set<Long>> model, int fileId) {
    Iterator<Set<Long>> sets = model.values().iterator();
    while (sets.hasNext()) {
      Set<Long> locations = sets.next();
      locations.removeIf(location -> RowLocation.fileId(location) == fileId);
      if (locations.isEmpty()) {
        sets.remove();
      }
    }
  }

  private static long sizeOf(Map<Row, Set<Long>> model) {
    long size = 0;
    for (Set<Long> locations : model.values()) {
      size += locations.size();
    }
    return size;
  }

  private static List<Long> sorted(long[] values) {
    List<Long> list = new ArrayList<>(values.length);
    for (long value : values) {
      list.add(value);
    }
    list.sort(null);
    return list;
  }

  private static List<Long> sorted(Set<Long> values) {
    List<Long> list = new ArrayList<>(values);
    list.sort(null);
    return list;
  }
}
