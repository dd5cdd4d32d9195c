package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.changes.MovedRowsException;
import io.mergesink.core.changes.RowPosition;
import io.mergesink.core.changes.StoredRow;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A table with a current-row column keeps several rows per key: appends land as they are and
 * are never live to the key index, in the writer that wrote them and in a new one that indexes
 * the table's files from scratch; upserts and deletes replace only the current row.
 */
class HistoryAppendsTest {
  private static final StructType SCHEMA = new StructType(List.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("current", PrimitiveType.BOOLEAN, false)));

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void appendsStayOutOfTheIndexAndChangesReplaceOnlyTheCurrentRow(MergeStrategy strategy) throws Exception {
    DeltaTable table = history(strategy);
    TableWriter writer = table.newWriter(WriterOptions.defaults(strategy));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a1", true)).upsert(Row.of(2L, "b1", true)).build());
    writer.commit(ChangeSet.builder().append(Row.of(1L, "a1", false)).upsert(Row.of(1L, "a2", true)).build());
    TableWriter fresh = table.newWriter(WriterOptions.defaults(strategy));
    assertThat(((MergingTableWriter) fresh).indexedKeys()).as("one indexed row per key").isEqualTo(2);
    fresh.commit(ChangeSet.builder().append(Row.of(1L, "a2", false)).upsert(Row.of(1L, "a3", true))
        .append(Row.of(2L, "b1", false)).delete(Row.of(2L)).build());
    // a writer that never saw the appends finds the current row only, and replaces nothing else
    table.newWriter(WriterOptions.defaults(strategy)).commit(ChangeSet.builder().append(Row.of(1L, "a3", false))
        .upsert(Row.of(1L, "a4", true)).build());

    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(
        Row.of(1L, "a1", false), Row.of(1L, "a2", false), Row.of(1L, "a3", false), Row.of(1L, "a4", true), Row.of(2L, "b1", false));
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS"})
  void versionsThatContradictTheirPlaceAreRejectedBeforeAnythingIsWritten(MergeStrategy strategy) throws Exception {
    DeltaTable table = history(strategy);
    TableWriter writer = table.newWriter(WriterOptions.defaults(strategy));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a1", true)).build());
    long version = KernelTables.latestVersion(table.root());

    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a2", false)).build()))
        .isInstanceOf(InvalidChangeSetException.class).hasMessageContaining("column 'current' must be true");
    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().append(Row.of(1L, "a2", true)).build()))
        .isInstanceOf(InvalidChangeSetException.class).hasMessageContaining("column 'current' must be false");
    DeltaTable plain = DeltaTable.forPath(new LocalStorage(), dir.resolve("plain").toString());
    plain.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), strategy, Map.of()));
    assertThatThrownBy(() -> plain.newWriter(WriterOptions.defaults(strategy)).commit(ChangeSet.builder().append(Row.of(1L, "x", false)).build()))
        .isInstanceOf(InvalidChangeSetException.class).hasMessageContaining(CurrentRowColumn.PROPERTY);
    assertThat(KernelTables.latestVersion(table.root())).isEqualTo(version);
    assertThat(KernelTables.readRows(table.root())).containsExactly(Row.of(1L, "a1", true));
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void closedVersionsAreFoundByKeyAndReplacedByPosition(MergeStrategy strategy) throws Exception {
    DeltaTable table = history(strategy);
    MergingTableWriter writer = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a1", true)).upsert(Row.of(2L, "b1", true)).upsert(Row.of(30L, "c1", true))
        .build());
    writer.commit(ChangeSet.builder().append(Row.of(1L, "a1", false)).upsert(Row.of(1L, "a2", true)).build());
    writer.commit(ChangeSet.builder().append(Row.of(2L, "b1", false)).delete(Row.of(2L)).build());

    List<StoredRow> stored = writer.liveRows().rowsOfKeys(List.of(Row.of(1L), Row.of(2L)));
    assertThat(stored).extracting(StoredRow::row).containsExactlyInAnyOrder(
        Row.of(1L, "a1", false), Row.of(1L, "a2", true), Row.of(2L, "b1", false));
    ChangeSet.Builder split = ChangeSet.builder();
    for (StoredRow row : stored) {
      if (Boolean.FALSE.equals(row.row().get(2))) {
        split.remove(row.position()).append(Row.of(row.row().get(0), row.row().get(1) + "'", false));
      }
    }
    writer.commit(split.build());
    // the current rows stay live to the index: a change replaces them, and nothing else
    writer.commit(ChangeSet.builder().append(Row.of(1L, "a2", false)).upsert(Row.of(1L, "a3", true)).build());

    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(Row.of(1L, "a1'", false), Row.of(1L, "a2", false),
        Row.of(1L, "a3", true), Row.of(2L, "b1'", false), Row.of(30L, "c1", true));
    assertThat(((MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy))).indexedKeys()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aRemovalOfARowAConcurrentCommitMovedFailsAndWritesNothing(MergeStrategy strategy) throws Exception {
    DeltaTable table = history(strategy);
    MergingTableWriter writer = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a1", true)).build());
    writer.commit(ChangeSet.builder().append(Row.of(1L, "a1", false)).upsert(Row.of(1L, "a2", true)).build());
    MergingTableWriter other = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    RowPosition closed = closedVersion(writer);
    other.commit(ChangeSet.builder().remove(closedVersion(other)).append(Row.of(1L, "a1 (other)", false)).build());
    long version = KernelTables.latestVersion(table.root());

    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().remove(closed).append(Row.of(1L, "a1 (late)", false)).build()))
        .isInstanceOf(MovedRowsException.class);
    assertThat(KernelTables.latestVersion(table.root())).isEqualTo(version);
    // decided again against the table as it is now, it lands
    writer.commit(ChangeSet.builder().remove(closedVersion(writer)).append(Row.of(1L, "a1 (late)", false)).build());
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(Row.of(1L, "a1 (late)", false), Row.of(1L, "a2", true));
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aChangeSetDecidedFromRowsAnotherWriterChangedFailsWritesNothingAndLandsDecidedAgain(MergeStrategy strategy) throws Exception {
    DeltaTable table = history(strategy);
    MergingTableWriter writer = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a1", true)).build());
    MergingTableWriter other = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    LiveRows live = writer.liveRows();
    Row read = live.read(new Row[] {Row.of(1L)}, List.of("id", "name", "current"))[0];
    other.commit(ChangeSet.builder().append(Row.of(1L, "a1", false)).upsert(Row.of(1L, "b2", true)).build());
    long version = KernelTables.latestVersion(table.root());

    ChangeSet decided = ChangeSet.builder().append(Row.of(1L, read.get(1), false)).upsert(Row.of(1L, "a2", true))
        .decidedFrom(live.reads()).build();
    assertThatThrownBy(() -> writer.commit(decided)).isInstanceOf(MovedRowsException.class).hasMessageContaining("key [1]");
    assertThat(KernelTables.latestVersion(table.root())).isEqualTo(version);

    live = writer.liveRows();
    read = live.read(new Row[] {Row.of(1L)}, List.of("id", "name", "current"))[0];
    writer.commit(ChangeSet.builder().append(Row.of(1L, read.get(1), false)).upsert(Row.of(1L, "a2", true))
        .decidedFrom(live.reads()).build());
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(
        Row.of(1L, "a1", false), Row.of(1L, "b2", false), Row.of(1L, "a2", true));
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aWholeTableReadFailsWhenAnotherWriterAddedACurrentRowInScope(MergeStrategy strategy) throws Exception {
    DeltaTable table = history(strategy);
    MergingTableWriter writer = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a1", true)).build());
    MergingTableWriter other = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    LiveRows live = writer.liveRows();
    assertThat(live.readAll()).containsExactly(Row.of(1L, "a1", true));
    // a new key only: a file added, none of the writer's re-marked; the committer would retry on top of it
    other.commit(ChangeSet.builder().upsert(Row.of(2L, "b1", true)).build());

    ChangeSet truncate = ChangeSet.builder().append(Row.of(1L, "a1", false)).delete(Row.of(1L)).decidedFrom(live.reads()).build();
    assertThatThrownBy(() -> writer.commit(truncate)).isInstanceOf(MovedRowsException.class)
        .hasMessageContaining("every live row");
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(Row.of(1L, "a1", true), Row.of(2L, "b1", true));
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aChangeSetDecidedFromRowsLandsWhenAConcurrentCommitLeftThemInPlace(MergeStrategy strategy) throws Exception {
    DeltaTable table = history(strategy);
    MergingTableWriter writer = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a1", true)).build());
    writer.commit(ChangeSet.builder().upsert(Row.of(2L, "b1", true)).build());
    MergingTableWriter other = (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
    LiveRows live = writer.liveRows();
    live.read(new Row[] {Row.of(1L)}, List.of("id", "name", "current"));
    other.commit(ChangeSet.builder().append(Row.of(2L, "b1", false)).upsert(Row.of(2L, "b2", true)).build());

    CommitResult result = writer.commit(ChangeSet.builder().append(Row.of(1L, "a1", false)).upsert(Row.of(1L, "a2", true))
        .decidedFrom(live.reads()).build());
    assertThat(result.replans()).as("planned again on the other writer's commit, not decided again").isEqualTo(1);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(Row.of(1L, "a1", false), Row.of(1L, "a2", true),
        Row.of(2L, "b1", false), Row.of(2L, "b2", true));
  }

  private static RowPosition closedVersion(MergingTableWriter writer) throws Exception {
    return writer.liveRows().rowsOfKeys(List.of(Row.of(1L))).stream().filter(row -> Boolean.FALSE.equals(row.row().get(2)))
        .findFirst().orElseThrow().position();
  }

  private DeltaTable history(MergeStrategy strategy) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve(strategy.configName()).toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), strategy, CurrentRowColumn.toProperty("current")));
    return table;
  }
}
