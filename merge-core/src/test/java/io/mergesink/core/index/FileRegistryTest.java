package io.mergesink.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FileRegistryTest {
  @Test
  void registersOnDemandAndResolvesBothWays() {
    FileRegistry registry = new FileRegistry();
    int a = registry.idOf("part-0000.parquet");
    int b = registry.idOf("p=1/part-0001.parquet");
    assertThat(a).isNotEqualTo(b);
    assertThat(registry.idOf("part-0000.parquet")).isEqualTo(a);
    assertThat(registry.path(a)).isEqualTo("part-0000.parquet");
    assertThat(registry.path(b)).isEqualTo("p=1/part-0001.parquet");
    assertThat(registry.find("other.parquet")).isEqualTo(-1);
    assertThat(registry.size()).isEqualTo(2);
  }

  @Test
  void reusesTheIdOfARemovedPathOnlyAfterRemoval() {
    FileRegistry registry = new FileRegistry();
    int a = registry.idOf("a.parquet");
    int b = registry.idOf("b.parquet");
    registry.remove("a.parquet");
    registry.remove("never-registered.parquet");
    assertThat(registry.find("a.parquet")).isEqualTo(-1);
    assertThatThrownBy(() -> registry.path(a))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file id " + a);
    int c = registry.idOf("c.parquet");
    assertThat(c).isEqualTo(a).isNotEqualTo(b);
    assertThat(registry.path(c)).isEqualTo("c.parquet");
    assertThat(registry.idOf("d.parquet")).isNotIn(b, c);
    assertThatThrownBy(() -> registry.path(99)).isInstanceOf(IllegalArgumentException.class);
  }
}
