package io.mergesink.ingest.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.ingest.IngestOptions;
import org.junit.jupiter.api.Test;

class ChangeSemanticsTest {
  @Test
  void upsertOrderByNamesASourcePositionOrAColumn() {
    assertThat(UpsertOrder.parse("none")).isEqualTo(UpsertOrder.NONE);
    assertThat(UpsertOrder.parse("source.lsn")).isEqualTo(new UpsertOrder(UpsertOrder.Kind.SOURCE_LSN, "__source_lsn"));
    assertThat(UpsertOrder.parse(" source.ts_ms ")).isEqualTo(new UpsertOrder(UpsertOrder.Kind.SOURCE_TS_MS, "__source_ts_ms"));
    assertThat(UpsertOrder.parse("updated_at")).isEqualTo(new UpsertOrder(UpsertOrder.Kind.COLUMN, "updated_at"));
    assertThat(UpsertOrder.parse("updated_at").sinkColumn()).isFalse();
    assertThatThrownBy(() -> UpsertOrder.parse("source.scn")).hasMessageContaining("source.lsn, source.ts_ms");
    assertThatThrownBy(() -> UpsertOrder.parse(" ")).hasMessageContaining("upsert.order.by");
  }

  @Test
  void appendTablesRefuseOrderingAndSoftDeletes() {
    ChangeSemantics soft = new ChangeSemantics(UpsertOrder.NONE, DeleteMode.SOFT, 10);
    assertThatThrownBy(() -> IngestOptions.builder("/tmp/t", "sink").writeMode(WriteMode.APPEND).changeSemantics(soft).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("write.mode=upsert only (write.mode=append").hasMessageContaining("delete.mode");
    assertThat(IngestOptions.builder("/tmp/t", "sink").changeSemantics(soft).build().changeSemantics().merges()).isTrue();
    assertThat(ChangeSemantics.DEFAULT.merges()).isFalse();
  }
}
