package io.mergesink.ingest.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.ingest.config.IngestOptions;
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
        .hasMessageContaining("write.mode=append records changes as rows of their own").hasMessageContaining("delete.mode");
    assertThat(IngestOptions.builder("/tmp/t", "sink").changeSemantics(soft).build().changeSemantics().merges()).isTrue();
    assertThat(ChangeSemantics.DEFAULT.merges()).isFalse();
  }

  @Test
  void historyTablesTakeOrderingButNotSoftDeletes() {
    ChangeSemantics ordered = new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.HARD, 10);
    assertThat(IngestOptions.builder("/tmp/t", "sink").writeMode(WriteMode.HISTORY).changeSemantics(ordered).build()
        .changeSemantics().ordered()).isTrue();
    ChangeSemantics soft = new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.SOFT, 10);
    assertThatThrownBy(() -> IngestOptions.builder("/tmp/t", "sink").writeMode(WriteMode.HISTORY).changeSemantics(soft).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delete.mode=soft applies to write.mode=upsert only");
  }
}
