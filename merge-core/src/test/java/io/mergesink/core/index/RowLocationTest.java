package io.mergesink.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RowLocationTest {
  @Test
  void packsAndUnpacksTheExtremes() {
    long[][] cases = {{0, 0}, {0, RowLocation.MAX_ROW_INDEX}, {RowLocation.MAX_FILE_ID, 0},
        {RowLocation.MAX_FILE_ID, RowLocation.MAX_ROW_INDEX}, {12345, 987_654_321L}};
    for (long[] c : cases) {
      long location = RowLocation.pack((int) c[0], c[1]);
      assertThat(location).as("pack(%d, %d)", c[0], c[1]).isNotNegative();
      assertThat(RowLocation.fileId(location)).isEqualTo((int) c[0]);
      assertThat(RowLocation.rowIndex(location)).isEqualTo(c[1]);
    }
    assertThat(RowLocation.ROW_INDEX_BITS + RowLocation.FILE_ID_BITS).isEqualTo(Long.SIZE - 1);
  }

  @Test
  void rejectsComponentsOutsideTheirFields() {
    assertThatThrownBy(() -> RowLocation.pack(RowLocation.MAX_FILE_ID + 1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file id must be in 0..8388607");
    assertThatThrownBy(() -> RowLocation.pack(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RowLocation.pack(7, 1L << RowLocation.ROW_INDEX_BITS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row index must be in 0..1099511627775").hasMessageContaining("file id 7");
    assertThatThrownBy(() -> RowLocation.pack(7, -1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void describesLocations() {
    assertThat(RowLocation.toString(RowLocation.pack(3, 17))).isEqualTo("file 3 row 17");
  }
}
