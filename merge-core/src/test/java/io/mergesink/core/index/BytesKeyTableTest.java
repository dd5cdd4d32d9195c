package io.mergesink.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * BytesKeyTable against a HashMap model, with words that keep fewer hash bits than the table has
 * slot bits: the path a table beyond 2^{@value BytesKeyTable#TAG_BITS} slots takes (home slots
 * rehashed from the arena while growing, shrinking and removing), reached here with a few
 * thousand keys instead of tens of millions.
 */
class BytesKeyTableTest {
  private static final int KEYS = 20_000;
  private static final int STEPS = 200_000;

  @Test
  void aTableLargerThanItsStoredHashBitsStaysExactThroughGrowthRemovalAndShrinking() {
    for (int hashBits : new int[] {3, 12, BytesKeyTable.TAG_BITS}) {
      checkAgainstModel(new BytesKeyTable(new Duplicates(), hashBits), new Random(hashBits));
    }
  }

  private static void checkAgainstModel(BytesKeyTable table, Random random) {
    Map<String, Long> model = new HashMap<>();
    for (int step = 0; step < STEPS; step++) {
      // grow to many keys, then remove most of them so the table shrinks and its arena compacts, then grow again
      boolean removing = step % 100_000 > 60_000;
      String key = "key-" + random.nextInt(KEYS) + "-" + "x".repeat(random.nextInt(40));
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      Long current = model.get(key);
      if (removing || current != null && random.nextInt(4) == 0) {
        if (current != null) {
          table.remove(bytes, bytes.length, current);
          model.remove(key);
        }
      } else if (current != null) {
        long location = RowLocation.pack(random.nextInt(100), random.nextInt(1_000_000));
        table.replace(bytes, bytes.length, current, location);
        model.put(key, location);
      } else {
        long location = RowLocation.pack(random.nextInt(100), random.nextInt(1_000_000));
        table.put(bytes, bytes.length, location);
        model.put(key, location);
      }
    }
    assertThat(table.keyCount()).isEqualTo(model.size());
    model.forEach((key, location) -> {
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      assertThat(table.get(bytes, bytes.length)).as(key).isEqualTo(location);
    });
    for (int i = 0; i < KEYS; i++) {
      String absent = "absent-" + i;
      byte[] bytes = absent.getBytes(StandardCharsets.UTF_8);
      assertThat(table.get(bytes, bytes.length)).isEqualTo(Duplicates.ABSENT);
    }
  }
}
