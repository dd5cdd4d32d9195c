package io.mergesink.core.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogCodec;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.parquet.DataFileWriter;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.parquet.WrittenFile;
import io.mergesink.core.snapshot.InvalidTableException;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.ColumnMapping;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.types.TypeChanges;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a scan finds columns in other writers' files, and what it refuses rather than answer
 * wrongly: in column mapping mode {@code id} a column is found by its Parquet field id even when
 * its physical name no longer matches; a file without field ids, a type change Delta does not
 * allow, and a file without a partition column's value are refused with the table, file and column.
 */
class ColumnResolutionTest {
  private final LocalStorage storage = new LocalStorage();

  @TempDir Path dir;

  @Test
  void idModeFindsColumnsByFieldIdNotByPhysicalName() throws IOException {
    Path table = FixtureTables.copy("column-mapping-id-table", dir.resolve("t"));
    Snapshot before = DeltaTable.forPath(storage, table.toString()).snapshot();
    List<Row> expected = scan(table);
    StructType schema = before.schema();
    List<StructField> renamed = new ArrayList<>(schema.fields());
    StructField title = schema.field(1);
    Map<String, Object> metadata = new HashMap<>(title.metadata());
    metadata.put(ColumnMapping.PHYSICAL_NAME_KEY, "not-the-name-in-any-file");
    renamed.set(1, new StructField(title.name(), title.type(), title.nullable(), metadata));
    commit(table, before.version() + 1, List.of(before.metadata().withSchema(new StructType(renamed))));

    List<Row> after = scan(table);

    assertThat(after).hasSize(177).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(after).extracting(row -> row.get(1)).doesNotContainNull();
    assertThat(KernelTables.readRows(table.toString())).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void idModeRefusesAFileWithoutFieldIds() throws IOException {
    Path table = FixtureTables.copy("column-mapping-id-table", dir.resolve("t"));
    Snapshot snapshot = DeltaTable.forPath(storage, table.toString()).snapshot();
    StructType physicalWithoutIds = StructType.of(
        new StructField(ColumnMapping.physicalName(snapshot.schema().field(0), ColumnMapping.Mode.ID), PrimitiveType.LONG, false),
        new StructField(ColumnMapping.physicalName(snapshot.schema().field(1), ColumnMapping.Mode.ID), PrimitiveType.STRING, true),
        new StructField(ColumnMapping.physicalName(snapshot.schema().field(2), ColumnMapping.Mode.ID), PrimitiveType.INTEGER, true));
    String name = "no-field-ids.parquet";
    WrittenFile file;
    try (DataFileWriter writer = DataFileWriter.open(storage, table.resolve(name).toString(), physicalWithoutIds,
        ParquetWriteOptions.defaults())) {
      writer.write(Row.of(1000L, "x", 1));
      file = writer.finish();
    }
    commit(table, snapshot.version() + 1, List.of(new AddFile(name, Map.of(), file.sizeBytes(), 0, true, file.statsJson(), null, null,
        null, null)));

    assertThatThrownBy(() -> scan(table)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(name)
        .hasMessageContaining("has no Parquet field ids, by which column mapping mode id finds its columns");
  }

  @Test
  void aTypeChangeDeltaDoesNotAllowIsRefused() throws IOException {
    Path table = FixtureTables.copy("type-widening-table", dir.resolve("t"));
    Snapshot snapshot = DeltaTable.forPath(storage, table.toString()).snapshot();
    List<StructField> fields = new ArrayList<>(snapshot.schema().fields());
    StructField qty = fields.get(1);
    fields.set(1, new StructField(qty.name(), qty.type(), qty.nullable(),
        Map.of(TypeChanges.METADATA_KEY, List.of(Map.of("fromType", "string", "toType", "long")))));
    commit(table, snapshot.version() + 1, List.of(snapshot.metadata().withSchema(new StructType(fields))));

    assertThatThrownBy(() -> scan(table)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("table " + table + ": column 'qty' was changed from string to long, which is not a type widening Delta allows");
  }

  @Test
  void aFileWithoutAPartitionValueIsRefused() throws IOException {
    Path table = FixtureTables.copy("partitioned-table", dir.resolve("t"));
    Snapshot snapshot = DeltaTable.forPath(storage, table.toString()).snapshot();
    AddFile any = snapshot.files().values().iterator().next();
    Map<String, String> onlyRegion = new HashMap<>(any.partitionValues());
    onlyRegion.remove("day");
    commit(table, snapshot.version() + 1, List.of(new AddFile(any.path(), onlyRegion, any.size(), any.modificationTime(), false,
        any.stats(), any.tags(), any.deletionVector(), null, null)));

    assertThatThrownBy(() -> scan(table)).isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("data file " + any.path() + " has no value for partition column 'day'");
  }

  private List<Row> scan(Path table) throws IOException {
    DeltaTable delta = DeltaTable.forPath(storage, table.toString());
    Snapshot snapshot = delta.snapshot();
    List<Row> rows = new ArrayList<>();
    try (TableScan scan = delta.scan(snapshot, List.of())) {
      scan.forEachRemaining(rows::add);
    }
    return rows;
  }

  private static void commit(Path table, long version, List<Action> actions) throws IOException {
    Files.write(Path.of(LogPaths.commitFile(table.toString(), version)), LogCodec.serialize(actions));
  }
}
