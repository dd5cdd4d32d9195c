package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.TableKind;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two writers and a schema change between them (docs/design.md, "Schema evolution"): rows built for
 * the schema before another writer appended a column land with that column null; rows built for a
 * schema the table cannot take by appending nulls are refused before anything is written.
 */
class SchemaChangeRaceTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));
  private static final StructField TIER = new StructField("tier", PrimitiveType.STRING, true);

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void rowsOfTheOldSchemaLandAfterAnotherWriterAddedAColumn(TableKind kind) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(kind.spec(SCHEMA, List.of("id"), Map.of()));
    TableWriter first = kind.newWriter(table);
    TableWriter second = kind.newWriter(table);
    first.commit(ChangeSet.builder().rowSchema(SCHEMA).upsert(Row.of(1L, "one")).upsert(Row.of(2L, "two")).txn("app:t:0", TxnChange.first(0)).build());

    // the first writer sees a new column and adds it; the second still holds rows of the old schema
    table.addColumns(List.of(TIER));
    first.refresh();
    first.commit(ChangeSet.builder().rowSchema(SCHEMA.add(TIER)).upsert(Row.of(3L, "three", "gold")).txn("app:t:0", TxnChange.from(0, 1)).build());
    second.commit(ChangeSet.builder().rowSchema(SCHEMA).upsert(Row.of(4L, "four")).txn("app:t:1", TxnChange.first(0)).build());

    assertThat(KernelTables.schema(table.root()).fieldNames()).containsExactly("id", "name", "tier");
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(
        Row.of(1L, "one", null), Row.of(2L, "two", null), Row.of(3L, "three", "gold"), Row.of(4L, "four", null));
    assertThat(KernelTables.txnVersion(table.root(), "app:t:1")).contains(0L);
  }

  @Test
  void rowsOfASchemaTheTableCannotTakeAreRefusedNamingBothSchemas() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    StructType retyped = StructType.of(new StructField("id", PrimitiveType.LONG, false), new StructField("name", PrimitiveType.INTEGER, true));

    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().rowSchema(retyped).upsert(Row.of(1L, 7)).build()))
        .isInstanceOf(InvalidChangeSetException.class)
        .hasMessageContaining("built for the schema [id, name]")
        .hasMessageContaining("column 2 was 'name' integer and is 'name' string");
    assertThat(KernelTables.readRows(table.root())).isEmpty();
    assertThat(KernelTables.latestVersion(table.root())).isZero();
  }
}
