package io.mergesink.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.types.PrimitiveType;
import org.junit.jupiter.api.Test;

/**
 * bench/README.md, "Targets": at most 48 heap bytes per indexed single BIGINT key. Sizes, not times: the estimate
 * is computed from the index's array lengths (KeyIndexMemoryProbe compares it with measured heap).
 */
class KeyIndexMemoryTest {
  private static final double MAX_BYTES_PER_BIGINT_KEY = 48.0;

  @Test
  void oneMillionBigintKeysTakeAtMost48BytesEach() {
    assertThat(bytesPerKey(1_000_000)).isLessThanOrEqualTo(MAX_BYTES_PER_BIGINT_KEY);
  }

  @Test
  void theWorstFillJustAfterGrowingStaysUnder48BytesPerKey() {
    // 2^20 slots hold up to 0.75 * 2^20 keys; one more doubles the table to 2^21 slots.
    int justAfterGrowth = (int) (LongKeyTable.LOAD_FACTOR * (1 << 20)) + 1;
    assertThat(bytesPerKey(justAfterGrowth)).isLessThanOrEqualTo(MAX_BYTES_PER_BIGINT_KEY);
  }

  private static double bytesPerKey(int keys) {
    KeyIndex index = KeyIndex.create(KeyIndexTest.schema(PrimitiveType.LONG));
    for (int i = 0; i < keys; i++) {
      index.putLong(i * 0x9E37_79B9_7F4A_7C15L, RowLocation.pack(i % 1_000, i));
    }
    assertThat(index.size()).isEqualTo(keys);
    return index.estimatedHeapBytes() / (double) index.size();
  }
}
