package io.mergesink.core.mergeinto;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "MERGE in merge-core" example of docs/table-formats.md, as it stands there, on a table of (id, qty). */
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void theExampleDoesWhatItsCommentsSay() throws Exception {
    String root = dir.resolve("orders").toString();
    DeltaTable.forPath(new LocalStorage(), root).createIfAbsent(new TableSpec(StructType.of(
        new StructField("id", PrimitiveType.LONG, false), new StructField("qty", PrimitiveType.INTEGER, true)), List.of("id"),
        MergeStrategy.DELETION_VECTORS, Map.of()));
    DeltaTable.forPath(new LocalStorage(), root).newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS))
        .commit(ChangeSet.builder().upsert(Row.of(1L, 10)).upsert(Row.of(2L, 20)).upsert(Row.of(3L, 300)).build());

    // from docs/table-formats.md
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    StructType source = StructType.of(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("qty", PrimitiveType.INTEGER, true),
        new StructField("op", PrimitiveType.STRING, true));

    MergeSpec spec = MergeSpec.builder(source, List.of("id"))
        // WHEN MATCHED AND s.op = 'd' THEN DELETE
        .whenMatched(Condition.onSource(s -> "d".equals(s.get("op")))).thenDelete()
        // WHEN MATCHED AND t.qty < 100 THEN UPDATE SET qty = t.qty + s.qty   (other columns kept)
        .whenMatched(Condition.withTarget(List.of("qty"), (s, t) -> t.get("qty") != null && (Integer) t.get("qty") < 100))
            .thenUpdate(Assignment.withTarget("qty", List.of("qty"), (s, t) -> (Integer) t.get("qty") + (Integer) s.get("qty")))
        // WHEN NOT MATCHED AND s.op <> 'd' THEN INSERT (id, qty) VALUES (s.id, s.qty)
        .whenNotMatched(Condition.onSource(s -> !"d".equals(s.get("op")))).thenInsert(Assignment.fromSource("qty"))
        .build();

    MergeResult result = MergeInto.on(writer).execute(spec, List.of(Row.of(1L, 5, "u"), Row.of(2L, null, "d")));
    // end of the page's code

    MergeResult more = MergeInto.on(writer).execute(spec, List.of(Row.of(3L, 1, "u"), Row.of(4L, 4, "u")));
    assertThat(KernelTables.readRows(root)).containsExactlyInAnyOrder(Row.of(1L, 15), Row.of(3L, 300), Row.of(4L, 4));
    assertThat(result.actions()).isEqualTo(new ActionCounts(0, 1, 1, 0, 0, 1));
    assertThat(more.actions()).isEqualTo(new ActionCounts(1, 0, 0, 0, 1, 1));
  }
}
