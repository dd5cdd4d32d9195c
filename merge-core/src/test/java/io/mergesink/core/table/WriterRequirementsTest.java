package io.mergesink.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.CheckpointReader;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writer requirements of PROTOCOL.md that hold for every table: deletion vectors only while
 * {@code delta.enableDeletionVectors} is true, no removal of data from an append-only table, and
 * checkpoints as {@code delta.checkpoint.writeStatsAs*} ask (none when they ask for struct statistics).
 */
class WriterRequirementsTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));

  @TempDir Path dir;

  @Test
  void noNewDeletionVectorsWhileThePropertyIsFalse() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.COPY_ON_WRITE,
        Map.of("delta.feature.deletionVectors", "supported")));

    assertThatThrownBy(() -> table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS)))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessage("table " + table.root() + " uses delta.enableDeletionVectors=false (new deletion vectors are not allowed) with merge"
            + " strategy deletion-vectors; use copy-on-write, which MergeSink does not support; it was left untouched");
  }

  @Test
  void anAppendOnlyTableRefusesATruncate() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(TableSpec.append(SCHEMA, Map.of("delta.appendOnly", "true")));
    TableWriter writer = table.newAppendWriter(WriterOptions.defaults());
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "kept")).build());

    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().truncate().upsert(Row.of(2L, "after")).build()))
        .isInstanceOf(InvalidChangeSetException.class)
        .hasMessageContaining("an append table takes rows only, found 0 deletes, 0 history appends, 0 removals by position and a truncate");
    assertThat(KernelTables.readRows(table.root())).containsExactly(Row.of(1L, "kept"));
  }

  @Test
  void checkpointsLeaveOutJsonStatisticsWhenTheTableSaysSo() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS,
        Map.of("delta.checkpoint.writeStatsAsJson", "false")));
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(1))
        .commit(ChangeSet.builder().upsert(Row.of(1L, "one")).build());

    List<AddFile> adds = CheckpointReader.read(new LocalStorage(), table.root(), List.of(LogPaths.checkpointFile(table.root(), 1)))
        .stream().filter(AddFile.class::isInstance).map(AddFile.class::cast).toList();
    assertThat(adds).singleElement().satisfies(add -> assertThat(add.stats()).isNull());
    assertThat(KernelTables.readRows(table.root())).containsExactly(Row.of(1L, "one"));
  }

  @Test
  void aTableAskingForStructStatisticsGetsNoCheckpointsAndNewOnesCannotAskForThem() throws Exception {
    Path root = dir.resolve("t");
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    table.changeConfiguration(configuration -> {
      Map<String, String> changed = new java.util.HashMap<>(configuration);
      changed.put("delta.checkpoint.writeStatsAsStruct", "true");
      return changed;
    });
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(1));

    assertThat(writer.commit(ChangeSet.builder().upsert(Row.of(1L, "one")).build()).checkpointWritten()).isFalse();
    try (var files = Files.list(root.resolve("_delta_log"))) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.contains("checkpoint"));
    }
    assertThatThrownBy(() -> new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS,
        Map.of("delta.checkpoint.writeStatsAsStruct", "true")))
        .hasMessageContaining("delta.checkpoint.writeStatsAsStruct=true: MergeSink writes checkpoint statistics as JSON");
  }
}
