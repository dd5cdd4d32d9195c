package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.rowtracking.RowTracking;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Spark fixture MergeSink writes accepts our upserts, deletes and inserts, and reads back with
 * Delta Kernel as the model says, with the features it carries kept: its protocol, its domain
 * metadata, the clustering provider of files we re-mark, row ids above the high-water mark, physical
 * column names (and field ids) in the files we add, partition directories, and the checkpoint kind the
 * table asks for.
 */
class FixtureWriteTest {
  @TempDir Path dir;

  static Stream<Arguments> writable() {
    List<Arguments> cases = new ArrayList<>();
    for (String fixture : List.of("clustered-table", "column-mapping-id-table", "column-mapping-name-table", "dv-table",
        "partitioned-table", "row-tracking-table", "type-widening-table", "types-table", "v2-checkpoint-table")) {
      cases.add(Arguments.of(fixture, MergeStrategy.DELETION_VECTORS));
      cases.add(Arguments.of(fixture, MergeStrategy.COPY_ON_WRITE));
    }
    cases.add(Arguments.of("cow-table", MergeStrategy.COPY_ON_WRITE));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("writable")
  void fixtureTakesOurChangesAndKeepsItsFeatures(String fixture, MergeStrategy strategy) throws Exception {
    String root = FixtureTables.copy(fixture, dir.resolve(fixture)).toString();
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root);
    Snapshot before = table.snapshot();
    KernelTables.KernelProtocol protocol = KernelTables.protocol(root);
    Map<String, Optional<String>> domains = domainsOf(root);
    long highWaterMark = RowTracking.highWaterMark(before.domainMetadata());
    Map<Object, Row> model = new HashMap<>();
    KernelTables.readRows(root).forEach(row -> model.put(row.get(0), row));

    ChangeSet changes = changes(before, model, fixture);
    TableWriter writer = table.newWriter(WriterOptions.defaults(strategy).withCheckpointInterval(1), List.of(before.schema().field(0).name()));
    CommitResult result = writer.commit(changes);

    List<Row> rows = KernelTables.readRows(root);
    assertThat(rows).as("one live row per key").hasSize(model.size());
    assertThat(new HashSet<>(rows)).isEqualTo(new HashSet<>(model.values()));
    assertThat(KernelTables.protocol(root)).as("protocol").isEqualTo(protocol);
    Map<String, Optional<String>> domainsAfter = domainsOf(root);
    if (fixture.equals("row-tracking-table")) {
      domains.remove(RowTracking.DOMAIN); // raised by the commit: assertRowIds checks it
      domainsAfter.remove(RowTracking.DOMAIN);
    }
    assertThat(domainsAfter).as("domain metadata").isEqualTo(domains);
    Snapshot after = table.snapshot();
    assertThat(after.version()).isEqualTo(result.version());
    List<AddFile> added = after.files().values().stream().filter(f -> !before.files().containsKey(f.path())).toList();
    assertThat(added).isNotEmpty();
    for (AddFile file : added) {
      assertThat(physicalFieldNames(root, file)).as("data file columns of " + file.path())
          .filteredOn(before.metadata().partitionColumns()::contains).isEmpty();
    }
    switch (fixture) {
      case "column-mapping-name-table", "column-mapping-id-table" -> {
        for (AddFile file : added) {
          assertThat(physicalFieldNames(root, file)).allMatch(name -> name.startsWith("col-"));
          assertThat(fieldIds(root, file)).doesNotContainNull();
        }
      }
      case "partitioned-table" -> added.forEach(file -> assertThat(LogPaths.decode(file.path())).startsWith("region="));
      case "clustered-table" -> after.files().values().stream().filter(f -> before.files().containsKey(f.path()))
          .forEach(file -> assertThat(file.clusteringProvider()).isEqualTo(before.files().get(file.path()).clusteringProvider()));
      case "row-tracking-table" -> assertRowIds(before, after, highWaterMark, result.version());
      case "v2-checkpoint-table" -> assertThat(checkpointsOf(root, result.version())).singleElement()
          .matches(name -> name.matches("\\d{20}\\.checkpoint\\.[0-9a-f-]{36}\\.parquet"), "a UUID-named V2 checkpoint");
      default -> { }
    }
    if (result.checkpointWritten()) {
      assertThat(new HashSet<>(KernelTables.readRows(root))).as("read from the new checkpoint").isEqualTo(new HashSet<>(model.values()));
    }
  }

  /** Row tracking: new files get ids above the old mark and the commit's version, re-marked ones keep theirs, the mark covers them all. */
  private static void assertRowIds(Snapshot before, Snapshot after, long highWaterMark, long version) {
    long mark = RowTracking.highWaterMark(after.domainMetadata());
    List<long[]> ranges = new ArrayList<>();
    for (AddFile file : after.files().values()) {
      AddFile old = before.files().get(file.path());
      assertThat(file.baseRowId()).as(file.path()).isNotNull();
      if (old != null) {
        assertThat(file.baseRowId()).isEqualTo(old.baseRowId());
        assertThat(file.defaultRowCommitVersion()).isEqualTo(old.defaultRowCommitVersion());
      } else {
        assertThat(file.baseRowId()).isGreaterThan(highWaterMark);
        assertThat(file.defaultRowCommitVersion()).isEqualTo(version);
        assertThat(file.baseRowId() + file.numRecords() - 1).isLessThanOrEqualTo(mark);
      }
      ranges.add(new long[] {file.baseRowId(), file.baseRowId() + file.numRecords()});
    }
    ranges.sort(Comparator.comparingLong(range -> range[0]));
    for (int i = 1; i < ranges.size(); i++) {
      assertThat(ranges.get(i)[0]).as("row id ranges of live files do not overlap").isGreaterThanOrEqualTo(ranges.get(i - 1)[1]);
    }
  }

  /**
   * An update of one existing row (a changed value; in the partitioned table a new region, so the
   * row moves), an insert of a new key, and deletes of two others.
   */
  private static ChangeSet changes(Snapshot before, Map<Object, Row> model, String fixture) {
    StructType schema = before.schema();
    List<Object> keys = new ArrayList<>(model.keySet());
    keys.sort(Comparator.comparing(Object::toString));
    Row updated = changed(schema, model.get(keys.get(0)), fixture.equals("partitioned-table") ? schema.indexOf("region") : -1);
    Object[] inserted = model.get(keys.get(1)).toArray();
    inserted[0] = inserted[0] instanceof Integer ? (Object) 9_999 : (Object) 9_999L;
    model.put(updated.get(0), updated);
    model.put(inserted[0], Row.of(inserted));
    ChangeSet.Builder changes = ChangeSet.builder().upsert(updated).upsert(Row.of(inserted));
    for (Object deleted : keys.subList(Math.min(2, keys.size() - 1), Math.min(4, keys.size()))) {
      model.remove(deleted);
      changes.delete(Row.of(deleted));
    }
    return changes.txn("fixture-app:orders:0", before.txnVersion("fixture-app:orders:0"), 1_000).build();
  }

  /** {@code row} with a changed value in column {@code column}, or in the first non-key column whose type allows it. */
  private static Row changed(StructType schema, Row row, int column) {
    Object[] values = row.toArray();
    for (int i = 1; i < schema.size(); i++) {
      if (column >= 0 && i != column) {
        continue;
      }
      Object changed = changedValue(schema.field(i).type(), values[i]);
      if (changed != null) {
        values[i] = changed;
        return Row.of(values);
      }
    }
    throw new IllegalStateException("no column of " + schema + " to change");
  }

  private static Object changedValue(DataType type, Object value) {
    if (type == PrimitiveType.STRING) {
      return value + "-ours";
    }
    if (type == PrimitiveType.LONG) {
      return value == null ? 1L : (Long) value + 1;
    }
    if (type instanceof DecimalType decimal) {
      return (value == null ? BigDecimal.ZERO : (BigDecimal) value).add(BigDecimal.ONE).setScale(decimal.scale());
    }
    return null;
  }

  private static Map<String, Optional<String>> domainsOf(String root) {
    Map<String, Optional<String>> domains = new HashMap<>();
    for (String domain : List.of("delta.clustering", RowTracking.DOMAIN)) {
      domains.put(domain, KernelTables.domainMetadata(root, domain));
    }
    return domains;
  }

  private static List<String> physicalFieldNames(String root, AddFile file) throws Exception {
    return footer(root, file).stream().map(Type::getName).toList();
  }

  private static List<Integer> fieldIds(String root, AddFile file) throws Exception {
    return footer(root, file).stream().map(type -> type.getId() == null ? null : type.getId().intValue()).toList();
  }

  private static List<Type> footer(String root, AddFile file) throws Exception {
    Path path = Path.of(LogPaths.resolve(root, file.path()));
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(path.toUri()),
        new org.apache.hadoop.conf.Configuration()))) {
      return reader.getFooter().getFileMetaData().getSchema().getFields();
    }
  }

  private static Set<String> checkpointsOf(String root, long version) throws Exception {
    try (Stream<Path> files = Files.list(Path.of(root, "_delta_log"))) {
      return files.map(p -> p.getFileName().toString()).filter(name -> name.startsWith(LogPaths.paddedVersion(version) + ".checkpoint"))
          .collect(java.util.stream.Collectors.toSet());
    }
  }
}
