package io.mergesink.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.InCommitTimestamps;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.rowtracking.RowTracking;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.ColumnMapping;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tables MergeSink creates with the features their table properties ask for, written as
 * PROTOCOL.md's writer requirements say and read back by Delta Kernel: column mapping (physical
 * names and column ids for every column, new columns included, {@code maxColumnId}, Parquet field
 * ids), row tracking (fresh row ids above the high-water mark), in-commit timestamps and V2
 * checkpoints.
 */
class NewTableFeaturesTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("address", StructType.of(new StructField("city", PrimitiveType.STRING, true)), true));

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"name", "id"})
  void columnMappedTablesNameEveryColumnPhysicallyAndGiveNewColumnsTheNextIds(String mode) throws Exception {
    DeltaTable table = create(Map.of(ColumnMapping.MODE_PROPERTY, mode, "delta.checkpointInterval", "2"));
    Snapshot created = table.snapshot();
    assertThat(created.metadata().configuration()).containsEntry(ColumnMapping.MAX_COLUMN_ID_PROPERTY, "4");
    assertThat(ids(created.schema())).containsExactly(1, 2, 3, 4);
    assertThat(physicalNames(created.schema())).allMatch(name -> name.startsWith("col-")).doesNotHaveDuplicates();

    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "one", Row.of("Oslo"))).upsert(Row.of(2L, "two", null)).build());
    Snapshot evolved = table.addColumns(List.of(new StructField("tags", StructType.of(new StructField("a", PrimitiveType.STRING, true)),
        true)));
    writer.refresh();
    writer.commit(ChangeSet.builder().upsert(Row.of(2L, "two again", Row.of("Rome"), Row.of("x"))).build());

    assertThat(evolved.metadata().configuration()).containsEntry(ColumnMapping.MAX_COLUMN_ID_PROPERTY, "6");
    assertThat(ids(evolved.schema())).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(
        Row.of(1L, "one", Row.of("Oslo"), null), Row.of(2L, "two again", Row.of("Rome"), Row.of("x")));
    assertThat(physicalNames(KernelTables.schema(table.root()))).isEqualTo(physicalNames(evolved.schema()));
    Snapshot latest = table.snapshot();
    for (AddFile file : latest.files().values()) {
      List<Type> fields = footer(table.root(), file);
      assertThat(fields).extracting(Type::getName).allMatch(name -> name.startsWith("col-"));
      assertThat(fields).extracting(field -> field.getId().intValue()).isSubsetOf(1, 2, 3, 5);
      assertThat(file.stats()).doesNotContain("\"name\"").contains(physicalName(latest.schema().field(1)));
    }
  }

  @Test
  void rowTrackingGivesEveryNewFileFreshRowIdsAndRaisesTheHighWaterMark() throws Exception {
    DeltaTable table = create(Map.of(RowTracking.ENABLE_PROPERTY, "true"));
    assertThat(table.snapshot().metadata().configuration()).containsKeys(RowTracking.ROW_ID_COLUMN_PROPERTY,
        RowTracking.COMMIT_VERSION_COLUMN_PROPERTY);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a", null)).upsert(Row.of(2L, "b", null)).upsert(Row.of(3L, "c", null)).build());
    long second = writer.commit(ChangeSet.builder().upsert(Row.of(2L, "b2", null)).upsert(Row.of(4L, "d", null)).build()).version();

    Snapshot snapshot = table.snapshot();
    assertThat(RowTracking.highWaterMark(snapshot.domainMetadata())).isEqualTo(4);
    assertThat(KernelTables.domainMetadata(table.root(), RowTracking.DOMAIN)).contains("{\"rowIdHighWaterMark\":4}");
    List<AddFile> files = new ArrayList<>(snapshot.files().values());
    files.sort(java.util.Comparator.comparing(AddFile::baseRowId));
    assertThat(files).extracting(AddFile::baseRowId).containsExactly(0L, 3L);
    assertThat(files).extracting(AddFile::defaultRowCommitVersion).containsExactly(1L, second);
    assertThat(files.get(0).deletionVector()).as("the first file, re-marked, kept its row ids").isNotNull();
    assertThat(KernelTables.readRows(table.root())).hasSize(4);
  }

  @Test
  void inCommitTimestampsComeFirstInEveryCommitAndGrow() throws Exception {
    DeltaTable table = create(Map.of(InCommitTimestamps.PROPERTY, "true"));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    for (long id = 0; id < 3; id++) {
      writer.commit(ChangeSet.builder().upsert(Row.of(id, "n", null)).build());
    }

    SnapshotLoader loader = new SnapshotLoader(new LocalStorage());
    long previous = Long.MIN_VALUE;
    for (long version = 0; version <= 3; version++) {
      List<Action> commit = loader.readCommit(table.root(), version);
      assertThat(commit.get(0)).isInstanceOf(CommitInfo.class);
      long timestamp = ((Number) ((CommitInfo) commit.get(0)).values().get(InCommitTimestamps.FIELD)).longValue();
      assertThat(timestamp).as("version " + version).isGreaterThan(previous);
      previous = timestamp;
    }
    assertThat(KernelTables.timestamp(table.root())).isEqualTo(previous);
  }

  @Test
  void aV2CheckpointPolicyTableGetsUuidNamedV2Checkpoints() throws Exception {
    DeltaTable table = create(Map.of("delta.checkpointPolicy", "v2"));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(2));
    Set<Row> expected = new HashSet<>();
    for (long id = 0; id < 5; id++) {
      Row row = Row.of(id, "n" + id, null);
      writer.commit(ChangeSet.builder().upsert(row).build());
      expected.add(row);
    }

    try (Stream<Path> files = Files.list(Path.of(table.root(), "_delta_log"))) {
      Set<String> checkpoints = files.map(p -> p.getFileName().toString()).filter(name -> name.contains(".checkpoint."))
          .collect(Collectors.toSet());
      assertThat(checkpoints).hasSize(2).allMatch(name -> name.matches("\\d{20}\\.checkpoint\\.[0-9a-f-]{36}\\.parquet"));
    }
    assertThat(table.snapshot().lastCheckpointVersion()).hasValue(4);
    assertThat(new HashSet<>(KernelTables.readRows(table.root()))).isEqualTo(expected);
  }

  private DeltaTable create(Map<String, String> properties) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, properties));
    return table;
  }

  /** Column ids of every field, nested ones too, depth first. */
  private static List<Integer> ids(StructType schema) {
    List<Integer> ids = new ArrayList<>();
    for (StructField field : schema.fields()) {
      ids.add(ColumnMapping.id(field).getAsInt());
      if (field.type() instanceof StructType nested) {
        ids.addAll(ids(nested));
      }
    }
    ids.sort(null);
    return ids;
  }

  private static List<String> physicalNames(StructType schema) {
    List<String> names = new ArrayList<>();
    for (StructField field : schema.fields()) {
      names.add(physicalName(field));
      if (field.type() instanceof StructType nested) {
        names.addAll(physicalNames(nested));
      }
    }
    return names;
  }

  private static String physicalName(StructField field) {
    return (String) field.metadata().get(ColumnMapping.PHYSICAL_NAME_KEY);
  }

  private static List<Type> footer(String root, AddFile file) throws Exception {
    Path path = Path.of(LogPaths.resolve(root, file.path()));
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(path.toUri()),
        new org.apache.hadoop.conf.Configuration()))) {
      return reader.getFooter().getFileMetaData().getSchema().getFields();
    }
  }
}
