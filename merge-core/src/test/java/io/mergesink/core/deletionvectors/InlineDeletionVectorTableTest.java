package io.mergesink.core.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table with {@value DeletionVectorStore#MAX_INLINE_BYTES_PROPERTY} gets its small deletion
 * vectors inline in the log (through commits and a checkpoint), larger ones in DV files, and Delta
 * Kernel reads the live rows of both; without the property every DV is a file.
 */
class InlineDeletionVectorTableTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("v", PrimitiveType.STRING, true));
  private static final int ROWS = 1_000;

  @TempDir Path dir;

  @Test
  void smallDeletionVectorsAreInlineAndKernelReadsThem() throws Exception {
    Path root = dir.resolve("inline");
    Map<Long, Row> expected = writeTable(root, Map.of(DeletionVectorStore.MAX_INLINE_BYTES_PROPERTY, "64"));

    Snapshot snapshot = new SnapshotLoader(new LocalStorage()).latest(root.toString());
    assertThat(snapshot.lastCheckpointVersion()).as("a checkpoint carries inline DVs too").isPresent();
    List<DeletionVectorDescriptor> dvs = snapshot.files().values().stream().map(AddFile::deletionVector)
        .filter(dv -> dv != null).toList();
    assertThat(dvs).anyMatch(DeletionVectorDescriptor::isInline).anyMatch(dv -> !dv.isInline());
    assertThat(dvs).filteredOn(DeletionVectorDescriptor::isInline).allMatch(dv -> dv.sizeInBytes() <= 64);
    assertThat(KernelTables.readRows(root.toString())).containsExactlyInAnyOrderElementsOf(expected.values());
  }

  @Test
  void withoutThePropertyEveryDeletionVectorIsAFile() throws Exception {
    Path root = dir.resolve("files");
    Map<Long, Row> expected = writeTable(root, Map.of());

    Snapshot snapshot = new SnapshotLoader(new LocalStorage()).latest(root.toString());
    assertThat(snapshot.files().values()).map(AddFile::deletionVector).filteredOn(dv -> dv != null)
        .isNotEmpty().noneMatch(DeletionVectorDescriptor::isInline);
    try (Stream<Path> files = Files.list(root)) {
      assertThat(files.filter(p -> p.getFileName().toString().startsWith(DeletionVectorStore.FILE_NAME_PREFIX))).isNotEmpty();
    }
    assertThat(KernelTables.readRows(root.toString())).containsExactlyInAnyOrderElementsOf(expected.values());
  }

  /** One file of {@value #ROWS} rows, then commits that update one row, then 100 rows, of it; returns the expected rows. */
  private static Map<Long, Row> writeTable(Path root, Map<String, String> properties) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, properties));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(3));
    Map<Long, Row> expected = new HashMap<>();
    ChangeSet.Builder load = ChangeSet.builder();
    for (long id = 0; id < ROWS; id++) {
      expected.put(id, Row.of(id, "loaded"));
      load.upsert(expected.get(id));
    }
    writer.commit(load.build());
    writer.commit(ChangeSet.builder().upsert(put(expected, 7, "one update")).build());
    ChangeSet.Builder many = ChangeSet.builder();
    for (long id = 100; id < 200; id++) {
      many.upsert(put(expected, id, "many updates"));
    }
    writer.commit(many.build());
    writer.commit(ChangeSet.builder().upsert(put(expected, 150, "update of an updated row")).delete(Row.of(8L)).build());
    expected.remove(8L);
    return expected;
  }

  private static Row put(Map<Long, Row> expected, long id, String v) {
    Row row = Row.of(id, v);
    expected.put(id, row);
    return row;
  }
}
