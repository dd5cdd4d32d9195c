package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.MovedRowsException;
import io.mergesink.core.changes.StoredRow;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.NewTable;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.testing.IcebergTables;
import java.nio.file.Path;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change sets decided from an Iceberg table's live rows ({@link IcebergLiveRows}) by one writer
 * while another writer (a second task) or a compaction commits: the decision lands only while the
 * rows it read are where they were, else it is decided again; rewrites, which move rows without
 * changing them, let it land. Two {@link FormatTable}s of one table, each with its own writer,
 * read back with Iceberg's generic reader.
 */
class IcebergLiveRowsTest {
  private static final String TABLE = "items";
  private static final StructType SCHEMA = new StructType(List.of(new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true)));
  private static final StructType HISTORY = SCHEMA.add(new StructField("current", PrimitiveType.BOOLEAN, true));

  @TempDir Path dir;
  private IcebergFormat format;

  @BeforeEach
  void catalog() {
    format = new IcebergFormat(IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG).build());
  }

  @AfterEach
  void close() {
    format.close();
  }

  @Test
  void aChangeSetDecidedFromAKeyAnotherWriterChangedSinceIsRefusedAndDecidedAgainLands() throws Exception {
    FormatTable a = create(SCHEMA, Map.of());
    a.commit(ChangeSet.builder().upsert(Row.of(1L, "a")).upsert(Row.of(2L, "b")).build());
    FormatTable b = open();

    ChangeSet decided = appendToName(a.liveRows(), 1L, "+");
    b.commit(ChangeSet.builder().upsert(Row.of(1L, "other writer")).build());
    assertThatThrownBy(() -> a.commit(decided)).isInstanceOf(MovedRowsException.class).hasMessageContaining("key [1]");

    a.commit(appendToName(a.liveRows(), 1L, "+"));
    assertThat(IcebergTables.readRows(table())).containsExactlyInAnyOrder(Row.of(1L, "other writer+"), Row.of(2L, "b"));
  }

  @Test
  void aKeyFoundAbsentThatAnotherWriterInsertedSinceIsDecidedAgain() throws Exception {
    FormatTable a = create(SCHEMA, Map.of());
    a.commit(ChangeSet.builder().upsert(Row.of(1L, "a")).build());
    FormatTable b = open();

    LiveRows live = a.liveRows();
    assertThat(live.contain(new Row[] {Row.of(5L)})).containsExactly(false);
    ChangeSet insertIfAbsent = ChangeSet.builder().upsert(Row.of(5L, "inserted")).decidedFrom(live.reads()).build();
    b.commit(ChangeSet.builder().upsert(Row.of(5L, "other writer")).build());

    assertThatThrownBy(() -> a.commit(insertIfAbsent)).isInstanceOf(MovedRowsException.class);
    assertThat(IcebergTables.readRows(table())).containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(5L, "other writer"));
  }

  @Test
  void anotherWritersCommitOfOtherKeysOrACompactionLetsTheDecisionLand() throws Exception {
    FormatTable a = create(SCHEMA, Map.of());
    a.commit(ChangeSet.builder().upsert(Row.of(1L, "a")).upsert(Row.of(2L, "b")).upsert(Row.of(3L, "c")).build());
    FormatTable b = open();

    ChangeSet decided = appendToName(a.liveRows(), 1L, "+");
    b.commit(ChangeSet.builder().upsert(Row.of(2L, "other writer")).build());
    a.commit(decided);

    decided = appendToName(a.liveRows(), 3L, "+");
    IcebergTables.rewriteEveryDataFile(table()); // moves every row, changes none
    a.commit(decided);

    assertThat(IcebergTables.readRows(table())).containsExactlyInAnyOrder(Row.of(1L, "a+"), Row.of(2L, "other writer"),
        Row.of(3L, "c+"));
  }

  @Test
  void aHistoryTablesClosedVersionsAreFoundByKeyAndRemovedByPositionUnlessARewriteMovedThem() throws Exception {
    FormatTable a = create(HISTORY, CurrentRowColumn.toProperty("current"));
    a.commit(ChangeSet.builder().upsert(Row.of(1L, "v1", true)).upsert(Row.of(2L, "w1", true)).build());
    a.commit(ChangeSet.builder().append(Row.of(1L, "v1", false)).upsert(Row.of(1L, "v2", true)).build());

    LiveRows live = a.liveRows();
    assertThat(live.read(new Row[] {Row.of(1L)}, List.of("name"))).containsExactly(Row.of("v2"));
    assertThat(live.readAll()).containsExactlyInAnyOrder(Row.of(1L, "v2", true), Row.of(2L, "w1", true));
    List<StoredRow> versions = live.rowsOfKeys(List.of(Row.of(1L)));
    assertThat(versions).extracting(StoredRow::row).containsExactlyInAnyOrder(Row.of(1L, "v1", false), Row.of(1L, "v2", true));
    StoredRow closed = versions.stream().filter(version -> Boolean.FALSE.equals(version.row().get(2))).findFirst().orElseThrow();

    // the closed version is replaced by one with another name; a rewrite first moves it
    ChangeSet replace = ChangeSet.builder().remove(closed.position()).append(Row.of(1L, "v1 renamed", false)).decidedFrom(live.reads())
        .build();
    IcebergTables.rewriteEveryDataFile(table());
    assertThatThrownBy(() -> a.commit(replace)).isInstanceOf(MovedRowsException.class).hasMessageContaining("rewritten or removed");

    live = a.liveRows();
    closed = live.rowsOfKeys(List.of(Row.of(1L))).stream().filter(version -> Boolean.FALSE.equals(version.row().get(2))).findFirst()
        .orElseThrow();
    a.commit(ChangeSet.builder().remove(closed.position()).append(Row.of(1L, "v1 renamed", false)).decidedFrom(live.reads()).build());
    assertThat(IcebergTables.readRows(table())).containsExactlyInAnyOrder(Row.of(1L, "v1 renamed", false), Row.of(1L, "v2", true),
        Row.of(2L, "w1", true));
  }

  /** An upsert of {@code id} whose name is its live row's with {@code suffix}, decided from that row. */
  private static ChangeSet appendToName(LiveRows live, long id, String suffix) throws Exception {
    Row row = live.read(new Row[] {Row.of(id)}, List.of("name"))[0];
    return ChangeSet.builder().upsert(Row.of(id, row.get(0) + suffix)).decidedFrom(live.reads()).build();
  }

  private FormatTable create(StructType schema, Map<String, String> properties) {
    return format.create(TABLE, new NewTable(schema, List.of("id"), List.of(), properties, WriteKind.BY_KEY), List.of("id"), List.of());
  }

  private FormatTable open() throws IOException {
    return format.open(TABLE, List.of("id"), List.of()).orElseThrow();
  }

  private Table table() {
    return IcebergTables.load(dir.toString(), "default", TABLE);
  }
}
