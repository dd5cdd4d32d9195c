package io.mergesink.core.mergeinto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.MovedRowsException;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.TableKind;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.TableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The engine's rules one at a time: what is read, what lands, and what is refused with which message. */
class MergeIntoTest {
  private static final StructType TABLE = MergeIntoModelTest.TABLE;
  private static final StructType SOURCE_WITH_OP = StructType.of(TABLE.field(0), TABLE.field(1),
      new StructField("op", PrimitiveType.STRING, true));

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void blindUpsertLandsAsTheDirectPathAndReadsNothing(TableKind kind) throws Exception {
    TableWriter direct = table("direct", kind);
    TableWriter merged = table("merged", kind);
    List<Row> initial = List.of(Row.of(1L, 1, "one", 10L), Row.of(2L, 2, "two", 20L), Row.of(3L, 3, "three", 30L));
    direct.commit(upserts(initial));
    merged.commit(upserts(initial));
    List<Row> source = List.of(Row.of(2L, 22, "two'", null), Row.of(4L, 4, "four", 40L), Row.of(3L, 33, null, 33L));

    CommitResult directResult = direct.commit(upserts(source));
    MergeSpec upsert = MergeSpec.builder(TABLE, List.of("id")).whenMatched().thenUpdateAll().whenNotMatched().thenInsertAll().build();
    MergeResult result = MergeInto.on(merged).execute(upsert, source);

    assertThat(KernelTables.readRows(dir.resolve("merged").toString()))
        .containsExactlyInAnyOrderElementsOf(KernelTables.readRows(dir.resolve("direct").toString()))
        .containsExactlyInAnyOrder(Row.of(1L, 1, "one", 10L), Row.of(2L, 22, "two'", null), Row.of(3L, 33, null, 33L),
            Row.of(4L, 4, "four", 40L));
    assertThat(result.actions()).isEqualTo(new ActionCounts(0, 0, 0, 3, 0, 0));
    assertThat(result.commit().counts().rowsWritten()).isEqualTo(directResult.counts().rowsWritten());
    assertThat(result.commit().counts().rowsDeleted()).isEqualTo(directResult.counts().rowsDeleted());
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void partialUpdateKeepsTheOtherColumnsAndReadsOnlyRowsAClauseNeeds(TableKind kind) throws Exception {
    TableWriter writer = table("t", kind);
    writer.commit(upserts(List.of(Row.of(1L, 1, "one", 10L), Row.of(2L, 2, "two", 20L), Row.of(3L, 3, "three", 30L))));
    MergeSpec spec = MergeSpec.builder(SOURCE_WITH_OP, List.of("id"))
        .whenMatched(Condition.onSource(s -> "d".equals(s.get("op")))).thenDelete()
        .whenMatched(Condition.withTarget(List.of("c"), (s, t) -> (Long) t.get("c") >= 20L))
        .thenUpdate(Assignment.withTarget("c", List.of("c"), (s, t) -> (Long) t.get("c") + (Integer) s.get("a")))
        .whenNotMatched(Condition.onSource(s -> !"d".equals(s.get("op")))).thenInsert(Assignment.fromSource("a"))
        .build();

    MergeResult result = MergeInto.on(writer).execute(spec, List.of(Row.of(1L, 100, "d"), Row.of(2L, 5, "u"), Row.of(3L, 7, "u"),
        Row.of(4L, 4, "u"), Row.of(5L, 5, "d")));

    assertThat(KernelTables.readRows(dir.resolve("t").toString()))
        .containsExactlyInAnyOrder(Row.of(2L, 2, "two", 25L), Row.of(3L, 3, "three", 37L), Row.of(4L, 4, null, null));
    // 1 and 5 are deleted blind (a delete of 5, which has no row, changes nothing); only 2 and 3 needed their target rows
    assertThat(result.actions()).isEqualTo(new ActionCounts(1, 2, 2, 0, 0, 2));
  }

  /**
   * Actions decided from a target row, or from a key found absent, land only while the table holds
   * those keys as it did: another writer's commit of one of them fails the commit, nothing written,
   * and deciding again lands on its row. Blind actions read nothing and land over it.
   */
  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void actionsDecidedFromKeysAnotherWriterChangedFailAndBlindOnesLand(TableKind kind) throws Exception {
    TableWriter writer = table("t", kind);
    writer.commit(upserts(List.of(Row.of(1L, 1, "one", 10L), Row.of(2L, 2, "two", 20L))));
    TableWriter other = table("t", kind);
    MergeSpec newer = MergeSpec.builder(TABLE, List.of("id"))
        .whenMatched(Condition.withTarget(List.of("c"), (s, t) -> (Long) s.get("c") > (Long) t.get("c"))).thenUpdateAll()
        .whenNotMatched().thenInsertAll().build();
    MergeSpec blind = MergeSpec.builder(TABLE, List.of("id")).whenMatched().thenUpdateAll().whenNotMatched().thenInsertAll().build();

    MergeActions readingTwo = MergeInto.on(writer).decide(newer, List.of(Row.of(2L, 200, "older", 15L)));
    MergeActions absentThree = MergeInto.on(writer).decide(newer, List.of(Row.of(3L, 300, "three", 30L)));
    MergeActions blindOne = MergeInto.on(writer).decide(blind, List.of(Row.of(1L, 100, "blind", 5L)));
    assertThat(readingTwo.decidedFrom()).isNotNull();
    assertThat(absentThree.decidedFrom()).isNotNull();
    assertThat(blindOne.decidedFrom()).as("decided from the source alone").isNull();
    other.commit(upserts(List.of(Row.of(1L, 11, "other", 50L), Row.of(2L, 22, "other", 10L), Row.of(3L, 33, "other", 40L))));

    assertThatThrownBy(() -> writer.commit(readingTwo.addTo(ChangeSet.builder()).build())).isInstanceOf(MovedRowsException.class);
    assertThatThrownBy(() -> writer.commit(absentThree.addTo(ChangeSet.builder()).build())).isInstanceOf(MovedRowsException.class);
    writer.commit(blindOne.addTo(ChangeSet.builder()).build());
    assertThat(KernelTables.readRows(dir.resolve("t").toString()))
        .containsExactlyInAnyOrder(Row.of(1L, 100, "blind", 5L), Row.of(2L, 22, "other", 10L), Row.of(3L, 33, "other", 40L));

    // decided again on the other writer's rows: 2's source is now the newer, 3's the older
    MergeInto.on(writer).execute(newer, List.of(Row.of(2L, 200, "older", 15L), Row.of(3L, 300, "three", 30L)));
    assertThat(KernelTables.readRows(dir.resolve("t").toString()))
        .containsExactlyInAnyOrder(Row.of(1L, 100, "blind", 5L), Row.of(2L, 200, "older", 15L), Row.of(3L, 33, "other", 40L));
  }

  @Test
  void updateSetAllOfASourceWithoutAColumnKeepsIt() throws Exception {
    TableWriter writer = table("t", TableKind.DELETION_VECTORS);
    writer.commit(upserts(List.of(Row.of(1L, 1, "one", 10L))));
    StructType source = StructType.of(TABLE.field(0), TABLE.field(1));
    MergeSpec spec = MergeSpec.builder(source, List.of("id")).whenMatched().thenUpdateAll().whenNotMatched().thenInsertAll().build();

    MergeResult result = MergeInto.on(writer).execute(spec, List.of(Row.of(1L, 11), Row.of(2L, 2)));

    assertThat(KernelTables.readRows(dir.resolve("t").toString())).containsExactlyInAnyOrder(Row.of(1L, 11, "one", 10L),
        Row.of(2L, 2, null, null));
    assertThat(result.actions()).isEqualTo(new ActionCounts(1, 1, 0, 0, 0, 0));
  }

  @Test
  void aKeyInTwoSourceRowsIsRefusedNamingItUnlessTheLastWins() throws Exception {
    TableWriter writer = table("t", TableKind.DELETION_VECTORS);
    writer.commit(upserts(List.of(Row.of(7L, 1, "seven", 70L))));
    long version = writer.snapshot().version();
    MergeSpec.Builder builder = MergeSpec.builder(TABLE, List.of("id")).whenMatched().thenUpdateAll().whenNotMatched().thenInsertAll();
    List<Row> source = List.of(Row.of(7L, 2, "first", 71L), Row.of(8L, 8, "eight", 80L), Row.of(7L, 3, "last", 72L));

    assertThatThrownBy(() -> MergeInto.on(writer).execute(builder.build(), source))
        .isInstanceOf(InvalidMergeException.class)
        .hasMessageContaining("key [id] = [7] is in source rows 0 and 2")
        .hasMessageContaining("nothing written");
    assertThat(KernelTables.latestVersion(dir.resolve("t").toString())).isEqualTo(version);

    MergeInto.on(writer).execute(builder.sourceDuplicates(SourceDuplicates.LAST_WINS).build(), source);
    assertThat(KernelTables.readRows(dir.resolve("t").toString())).containsExactlyInAnyOrder(Row.of(7L, 3, "last", 72L),
        Row.of(8L, 8, "eight", 80L));
  }

  @Test
  void aClauseReadingATargetColumnItDidNotDeclareFailsNamingIt() throws Exception {
    TableWriter writer = table("t", TableKind.DELETION_VECTORS);
    writer.commit(upserts(List.of(Row.of(1L, 1, "one", 10L))));
    MergeSpec spec = MergeSpec.builder(TABLE, List.of("id"))
        .whenMatched(Condition.withTarget(List.of("c"), (s, t) -> t.get("b") != null)).thenDelete().build();

    assertThatThrownBy(() -> MergeInto.on(writer).execute(spec, List.of(Row.of(1L, 1, "x", 1L))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("target row has no column 'b'");
  }

  @Test
  void specsThatCannotWorkAreRefusedWithTheReason() throws Exception {
    TableWriter writer = table("t", TableKind.DELETION_VECTORS);
    MergeSpec onOtherColumn = MergeSpec.builder(TABLE, List.of("a")).whenNotMatched().thenInsertAll().build();
    assertThatThrownBy(() -> MergeInto.on(writer).decide(onOtherColumn, List.of()))
        .isInstanceOf(InvalidMergeException.class).hasMessageContaining("joins on [a], but the table's primary key is [id]");

    MergeSpec unknownColumn = MergeSpec.builder(TABLE, List.of("id")).whenMatched().thenUpdate(Assignment.computed("zz", s -> 1)).build();
    assertThatThrownBy(() -> MergeInto.on(writer).decide(unknownColumn, List.of()))
        .isInstanceOf(InvalidMergeException.class).hasMessageContaining("columns [zz] assigned by UPDATE SET are not columns");

    assertThatThrownBy(() -> MergeSpec.builder(TABLE, List.of("id")).whenMatched().thenUpdate(Assignment.fromSource("id")))
        .hasMessageContaining("key column 'id' is assigned");
    assertThatThrownBy(() -> MergeSpec.builder(TABLE, List.of("id"))
        .whenNotMatched(Condition.withTarget(List.of("a"), (s, t) -> true)).thenInsertAll())
        .hasMessageContaining("a source row that matched nothing has no target row");
    assertThatThrownBy(() -> MergeSpec.builder(TABLE, List.of("id")).build()).hasMessageContaining("at least one WHEN clause");
    assertThatThrownBy(() -> MergeInto.on(table("append", TableKind.APPEND)))
        .hasMessageContaining("MERGE needs the writer of a table with a primary key");
  }

  private TableWriter table(String name, TableKind kind) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve(name).toString());
    table.createIfAbsent(kind.spec(TABLE, List.of("id"), Map.of()));
    return kind.newWriter(table);
  }

  private static ChangeSet upserts(List<Row> rows) {
    ChangeSet.Builder changes = ChangeSet.builder();
    new ArrayList<>(rows).forEach(changes::upsert);
    return changes.build();
  }
}
