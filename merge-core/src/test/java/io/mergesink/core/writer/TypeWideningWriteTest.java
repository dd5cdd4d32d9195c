package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.types.TypeChanges;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Type widening writes (PROTOCOL.md, "Writer Requirements for Type Widening"): a column's type grows
 * in a metadata commit that records the change in {@code delta.typeChanges}, enables the property and
 * adds the feature; files written before keep their types and read widened; rows built for the
 * narrower schema are widened before they land; changes Delta does not allow are refused.
 */
class TypeWideningWriteTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.INTEGER, false),
      new StructField("qty", PrimitiveType.INTEGER, true),
      new StructField("price", PrimitiveType.FLOAT, true),
      new StructField("amount", new DecimalType(5, 2), true),
      new StructField("day", PrimitiveType.DATE, true),
      new StructField("region", PrimitiveType.STRING, true));
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  @TempDir Path dir;

  @Test
  void widenedColumnsKeepOldFilesReadableAndTakeWiderValues() throws Exception {
    DeltaTable table = create(MergeStrategy.DELETION_VECTORS);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    writer.commit(ChangeSet.builder().upsert(Row.of(1, 7, 1.5f, new BigDecimal("123.45"), 10, "eu"))
        .upsert(Row.of(2, 8, 2.5f, new BigDecimal("-1.00"), 11, "us")).build());
    StructType narrow = writer.snapshot().schema();

    Snapshot widened = table.widenColumns(widening());

    assertThat(widened.schema().fieldNames()).isEqualTo(narrow.fieldNames());
    assertThat(widened.schema().field("qty").orElseThrow().type()).isEqualTo(PrimitiveType.LONG);
    assertThat(widened.schema().field("qty").orElseThrow().metadata().get(TypeChanges.METADATA_KEY))
        .isEqualTo(List.of(Map.of("fromType", "integer", "toType", "long")));
    assertThat(widened.metadata().configuration()).containsEntry(DeltaTable.TYPE_WIDENING_PROPERTY, "true");
    assertThat(widened.protocol().readerFeatures()).contains("typeWidening");
    assertThat(KernelTables.protocol(table.root()).writerFeatures()).contains("typeWidening");

    // a change set built for the narrow schema before the widening lands widened
    writer.commit(ChangeSet.builder().rowSchema(narrow).upsert(Row.of(2, 9, 3.5f, new BigDecimal("2.00"), 12, "us")).build());
    writer.commit(ChangeSet.builder().upsert(Row.of(3, 5_000_000_000L, 1.0E300, new BigDecimal("12345678.123"), 3 * MICROS_PER_DAY + 1,
        "ap")).build());

    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(
        Row.of(1, 7L, 1.5, new BigDecimal("123.450"), 10 * MICROS_PER_DAY, "eu"),
        Row.of(2, 9L, 3.5, new BigDecimal("2.000"), 12 * MICROS_PER_DAY, "us"),
        Row.of(3, 5_000_000_000L, 1.0E300, new BigDecimal("12345678.123"), 3 * MICROS_PER_DAY + 1, "ap"));
  }

  @Test
  void aSparkTableWidenedBeforeIsWidenedAgainWithItsHistoryKept() throws Exception {
    String root = FixtureTables.copy("type-widening-table", dir.resolve("fixture")).toString();
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root);

    Snapshot widened = table.widenColumns(Map.of("amount", new DecimalType(20, 4)));

    assertThat(widened.schema().field("amount").orElseThrow().metadata().get(TypeChanges.METADATA_KEY)).asList()
        .containsExactly(Map.of("fromType", "decimal(10,2)", "toType", "decimal(14,2)"),
            Map.of("fromType", "decimal(14,2)", "toType", "decimal(20,4)"));
    assertThat(KernelTables.readRows(root)).hasSize(182)
        .allMatch(row -> row.get(3) == null || ((BigDecimal) row.get(3)).scale() == 4);
  }

  @Test
  void aWidenedKeyColumnIsIndexedAnew() throws Exception {
    DeltaTable table = create(MergeStrategy.COPY_ON_WRITE);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE));
    writer.commit(ChangeSet.builder().upsert(Row.of(1, 1, null, null, null, "a")).upsert(Row.of(2, 2, null, null, null, "b")).build());

    table.widenColumns(Map.of("id", PrimitiveType.LONG));
    writer.refresh();
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, 10, null, null, null, "a2")).delete(Row.of(2L)).build());

    assertThat(KernelTables.readRows(table.root())).containsExactly(Row.of(1L, 10, null, null, null, "a2"));
  }

  @Test
  void changesDeltaDoesNotAllowAndPartitionColumnsAreRefused() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("p").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), List.of("qty"), MergeStrategy.DELETION_VECTORS, Map.of()));
    long version = table.snapshot().version();

    assertThatThrownBy(() -> table.widenColumns(Map.of("region", PrimitiveType.LONG)))
        .hasMessageContaining("column 'region' cannot change from string to long");
    assertThatThrownBy(() -> table.widenColumns(Map.of("amount", new DecimalType(6, 4))))
        .hasMessageContaining("column 'amount' cannot change from decimal(5,2) to decimal(6,4)");
    assertThatThrownBy(() -> table.widenColumns(Map.of("price", PrimitiveType.INTEGER)))
        .hasMessageContaining("column 'price' cannot change from float to integer");
    assertThatThrownBy(() -> table.widenColumns(Map.of("qty", PrimitiveType.LONG)))
        .hasMessageContaining("partition column 'qty' is integer and MergeSink does not widen partition columns");
    assertThat(table.snapshot().version()).as("nothing committed").isEqualTo(version);
  }

  private DeltaTable create(MergeStrategy strategy) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), strategy, Map.of()));
    return table;
  }

  private static Map<String, DataType> widening() {
    Map<String, DataType> types = new LinkedHashMap<>();
    types.put("qty", PrimitiveType.LONG);
    types.put("price", PrimitiveType.DOUBLE);
    types.put("amount", new DecimalType(11, 3));
    types.put("day", PrimitiveType.TIMESTAMP_NTZ);
    return types;
  }
}
