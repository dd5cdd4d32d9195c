package io.mergesink.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
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

class DeltaTableTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("tenant", PrimitiveType.STRING, false),
      new StructField("id", PrimitiveType.INTEGER, false),
      new StructField("body", PrimitiveType.STRING, true),
      new StructField("seen", PrimitiveType.TIMESTAMP_NTZ, true));

  @TempDir Path dir;

  @Test
  void createdTableHasSchemaKeyAndDeletionVectorProtocol() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    Snapshot snapshot = table.createIfAbsent(new TableSpec(SCHEMA, List.of("tenant", "id"), MergeStrategy.DELETION_VECTORS,
        Map.of("delta.logRetentionDuration", "interval 3 days")));

    assertThat(KernelTables.schema(table.root())).isEqualTo(SCHEMA);
    assertThat(PrimaryKeyProperty.of(snapshot.metadata())).containsExactly("tenant", "id");
    assertThat(snapshot.metadata().configuration()).containsEntry("delta.logRetentionDuration", "interval 3 days")
        .containsEntry("delta.enableDeletionVectors", "true");
    assertThat(snapshot.protocol().readerFeatures()).contains("deletionVectors", "timestampNtz");
    assertThat(table.createIfAbsent(TableSpec.append(SCHEMA, List.of("id"), List.of(), Map.of())).version()).isZero();
  }

  @Test
  void addedColumnsReadAsNullForOldRowsAndTakeNewValues() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("tenant", "id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS))
        .commit(ChangeSet.builder().upsert(Row.of("a", 1, "one", 5L)).upsert(Row.of("a", 2, "two", null)).build());

    table.addColumns(List.of(new StructField("score", PrimitiveType.DOUBLE, false), new StructField("body", PrimitiveType.STRING, true)));
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS))
        .commit(ChangeSet.builder().upsert(Row.of("a", 2, "two!", null, 0.5)).build());

    assertThat(KernelTables.schema(table.root()).fieldNames()).containsExactly("tenant", "id", "body", "seen", "score");
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(Row.of("a", 1, "one", 5L, null), Row.of("a", 2, "two!", null, 0.5));
  }

  @Test
  void unchangedColumnsKeepTheLiveRowsValues() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("tenant", "id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    String large = "x".repeat(100_000);
    writer.commit(ChangeSet.builder().upsert(Row.of("a", 1, large, 1L)).build());

    writer.commit(ChangeSet.builder().upsert(Row.of("a", 1, Unchanged.VALUE, 2L)).upsert(Row.of("b", 9, Unchanged.VALUE, 3L)).build());

    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(Row.of("a", 1, large, 2L), Row.of("b", 9, null, 3L));
  }

  @Test
  void aPrimaryKeyChangeKeepsTheUnchangedColumnsOfTheOldRow() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("tenant", "id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    String large = "y".repeat(50_000);
    writer.commit(ChangeSet.builder().upsert(Row.of("a", 1, large, 1L)).build());

    writer.commit(ChangeSet.builder().delete(Row.of("a", 1)).upsert(Row.of("a", 2, Unchanged.VALUE, 2L), Row.of("a", 1)).build());

    assertThat(KernelTables.readRows(table.root())).containsExactly(Row.of("a", 2, large, 2L));
  }

  @Test
  void upsertsNeedAPrimaryKey() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(TableSpec.append(SCHEMA, Map.of()));
    assertThatThrownBy(() -> table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE)))
        .isInstanceOf(UnsupportedTableException.class).hasMessageContaining("no primary key");
    assertThatThrownBy(() -> table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS), List.of("id")))
        .isInstanceOf(UnsupportedTableException.class).hasMessageContaining("deletionVectors");
  }
}
