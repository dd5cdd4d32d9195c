package io.mergesink.core.index;

import static io.mergesink.core.index.KeyIndex.NO_LOCATION;
import static io.mergesink.core.index.KeyIndexTest.loc;
import static io.mergesink.core.index.KeyIndexTest.schema;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import it.unimi.dsi.fastutil.HashCommon;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Keys that collide in the tables' hash functions are still told apart by their full value. */
class KeyIndexCollisionTest {
  private static final long SEED = 42L;
  private static final StructType STRING_KEY = schema(PrimitiveType.STRING);

  @Test
  void longKeysInOneProbeClusterAreNeverConfused() {
    // fastutil's long map places key k at mix(k) & mask; these keys all mix to multiples of 2^32,
    // so every one of them starts probing at slot 0 in any table below 2^32 slots.
    List<Long> keys = new ArrayList<>();
    for (long j = 0; j < 3_000; j++) {
      keys.add(HashCommon.invMix(j << Integer.SIZE));
    }
    assertThat(HashCommon.mix(keys.get(7)) & 0xFFFF_FFFFL).isZero();
    KeyIndex index = KeyIndex.create(schema(PrimitiveType.LONG));
    checkClusterChurn(index, keys.stream().map(Row::of).toList());
  }

  @Test
  void stringKeysWithEqualHashesAreNeverConfused() {
    // Birthday search for full 32-bit collisions of BytesKeyTable.hash over encoded keys.
    KeyEncoder encoder = new KeyEncoder(STRING_KEY);
    Map<Integer, String> byHash = new HashMap<>();
    List<String> colliding = new ArrayList<>();
    for (int i = 0; i < 400_000; i++) {
      String key = "key-" + i;
      int hash = BytesKeyTable.hash(encoder.buffer(), encoder.encode(Row.of(key)));
      String previous = byHash.putIfAbsent(hash, key);
      if (previous != null) {
        colliding.add(previous);
        colliding.add(key);
      }
    }
    assertThat(colliding).as("full hash collisions found").hasSizeGreaterThanOrEqualTo(2);
    KeyIndex index = KeyIndex.create(STRING_KEY);
    for (int i = 0; i < colliding.size(); i++) {
      index.put(Row.of(colliding.get(i)), loc(0, i));
    }
    for (int i = 0; i < colliding.size(); i++) {
      assertThat(index.lookup(Row.of(colliding.get(i)))).as(colliding.get(i)).isEqualTo(loc(0, i));
    }
    for (int i = 0; i < colliding.size(); i += 2) {
      index.remove(Row.of(colliding.get(i)), loc(0, i));
      assertThat(index.lookup(Row.of(colliding.get(i)))).isEqualTo(NO_LOCATION);
      assertThat(index.lookup(Row.of(colliding.get(i + 1)))).isEqualTo(loc(0, i + 1));
    }
  }

  @Test
  void stringKeysInOneProbeClusterAreNeverConfused() {
    // Keys whose hash has 12 low zero bits share their home slot in every table up to 4096 slots.
    KeyEncoder encoder = new KeyEncoder(STRING_KEY);
    List<Row> keys = new ArrayList<>();
    for (int i = 0; keys.size() < 600; i++) {
      String key = "k" + i;
      if ((BytesKeyTable.hash(encoder.buffer(), encoder.encode(Row.of(key))) & 0xFFF) == 0) {
        keys.add(Row.of(key));
      }
    }
    checkClusterChurn(KeyIndex.create(STRING_KEY), keys);
  }

  /** Puts all keys, then removes and re-adds random halves, checking every key each round. */
  private static void checkClusterChurn(KeyIndex index, List<Row> keys) {
    Random random = new Random(SEED);
    boolean[] present = new boolean[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      index.put(keys.get(i), loc(1, i));
      present[i] = true;
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      order.add(i);
    }
    for (int round = 0; round < 6; round++) {
      Collections.shuffle(order, random);
      for (int i : order.subList(0, keys.size() / 2)) {
        if (present[i]) {
          index.remove(keys.get(i), loc(1, i));
        } else {
          index.put(keys.get(i), loc(1, i));
        }
        present[i] = !present[i];
      }
      long expectedSize = 0;
      for (int i = 0; i < keys.size(); i++) {
        assertThat(index.lookup(keys.get(i)))
            .as("key %s in round %d (seed %d)", keys.get(i), round, SEED)
            .isEqualTo(present[i] ? loc(1, i) : NO_LOCATION);
        expectedSize += present[i] ? 1 : 0;
      }
      assertThat(index.size()).isEqualTo(expectedSize);
    }
  }
}
