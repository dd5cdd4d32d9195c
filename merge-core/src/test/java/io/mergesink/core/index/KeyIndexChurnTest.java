package io.mergesink.core.index;

import static io.mergesink.core.index.KeyIndex.NO_LOCATION;
import static io.mergesink.core.index.KeyIndexTest.loc;
import static io.mergesink.core.index.KeyIndexTest.schema;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** Memory stays bounded under churn: tables shrink and removed key bytes are reclaimed. */
class KeyIndexChurnTest {
  private static final int KEYS = 200_000;

  @Test
  void removingMostKeysReleasesMemory() {
    List<IntFunction<Row>> keyKinds = List.of(i -> Row.of((long) i), i -> Row.of("customer-" + i));
    for (IntFunction<Row> keyOf : keyKinds) {
      KeyIndex index = KeyIndex.create(schema(keyOf.apply(0).get(0) instanceof Long
          ? PrimitiveType.LONG : PrimitiveType.STRING));
      for (int i = 0; i < KEYS; i++) {
        index.put(keyOf.apply(i), loc(1, i));
      }
      long full = index.estimatedHeapBytes();
      for (int i = 0; i < KEYS; i++) {
        if (i % 20 != 0) {
          index.remove(keyOf.apply(i), loc(1, i));
        }
      }
      assertThat(index.size()).isEqualTo(KEYS / 20);
      assertThat(index.estimatedHeapBytes()).as("heap of %s after removing 95%% of keys", index)
          .isLessThan(full / 4);
      for (int i = 0; i < KEYS; i++) {
        assertThat(index.lookup(keyOf.apply(i))).as("key %d of %s", i, index)
            .isEqualTo(i % 20 == 0 ? loc(1, i) : NO_LOCATION);
      }
    }
  }

  @Test
  void repeatedUpsertsOfTheSameKeysDoNotGrowTheArena() {
    KeyIndex index = KeyIndex.create(schema(PrimitiveType.STRING));
    for (int i = 0; i < KEYS; i++) {
      index.put(Row.of("customer-" + i), loc(0, i));
    }
    long initial = index.estimatedHeapBytes();
    for (int round = 1; round <= 10; round++) {
      for (int i = 0; i < KEYS; i++) {
        Row key = Row.of("customer-" + i);
        index.remove(key, loc(round - 1, i));
        index.put(key, loc(round, i));
      }
      assertThat(index.estimatedHeapBytes()).as("heap after upsert round %d: %s", round, index)
          .isLessThan(initial * 2);
    }
    for (int i = 0; i < KEYS; i++) {
      assertThat(index.lookup(Row.of("customer-" + i))).isEqualTo(loc(10, i));
    }
    assertThat(index.size()).isEqualTo(KEYS);
  }
}
