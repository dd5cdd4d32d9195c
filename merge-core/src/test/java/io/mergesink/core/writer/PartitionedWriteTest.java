package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.maintenance.Vacuum;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Partitioned tables (docs/design.md, "Table layout"): partition values written as PROTOCOL.md's
 * "Partition Value Serialization" says for every partition column type, Hive-style directories,
 * partition columns kept out of the data files, rows whose partition value changes moved (the old
 * row deleted in its partition, the new one written in the other), compaction within a partition.
 * Delta Kernel reads every table back.
 */
class PartitionedWriteTest {
  private static final StructType ALL_TYPES = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("v", PrimitiveType.STRING, true),
      new StructField("s", PrimitiveType.STRING, true),
      new StructField("b", PrimitiveType.BYTE, true),
      new StructField("i", PrimitiveType.INTEGER, true),
      new StructField("l", PrimitiveType.LONG, true),
      new StructField("f", PrimitiveType.DOUBLE, true),
      new StructField("flag", PrimitiveType.BOOLEAN, true),
      new StructField("dec", new DecimalType(10, 2), true),
      new StructField("d", PrimitiveType.DATE, true),
      new StructField("ts", PrimitiveType.TIMESTAMP, true),
      new StructField("ntz", PrimitiveType.TIMESTAMP_NTZ, true));
  private static final List<String> ALL_PARTITIONS = List.of("s", "b", "i", "l", "f", "flag", "dec", "d", "ts", "ntz");
  private static final StructType ORDERS = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("region", PrimitiveType.STRING, true),
      new StructField("day", PrimitiveType.DATE, true));
  private static final List<String> REGIONS = List.of("eu", "us", "ap", "a b/c=d%e");

  @TempDir Path dir;

  @Test
  void everyPartitionColumnTypeRoundTripsThroughKernel() throws Exception {
    DeltaTable table = create("types", ALL_TYPES, ALL_PARTITIONS, MergeStrategy.DELETION_VECTORS);
    long ts = Instant.parse("2026-03-01T12:34:56.789012Z").getEpochSecond() * 1_000_000 + 789_012;
    Row full = Row.of(1L, "full", "a b/c=d%e:é", (byte) -7, 42, Long.MIN_VALUE, -0.25, true, new BigDecimal("-10.25"),
        (int) LocalDate.of(2026, 2, 28).toEpochDay(), ts, ts);
    Row nulls = Row.of(2L, "nulls", null, null, null, null, null, null, null, null, null, null);
    Row whole = Row.of(3L, "whole seconds", "x", (byte) 0, 0, 0L, 1.0E10, false, new BigDecimal("0.00"), 0, 0L, -1_000_000L);

    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS)).commit(ChangeSet.builder()
        .upsert(full).upsert(nulls).upsert(whole).build());

    assertThat(new HashSet<>(KernelTables.readRows(table.root()))).isEqualTo(Set.of(full, nulls, whole));
    Map<String, String> values = fileOf(table.snapshot(), "s", "a b/c=d%e:é").partitionValues();
    assertThat(values).containsExactly(Map.entry("s", "a b/c=d%e:é"), Map.entry("b", "-7"), Map.entry("i", "42"),
        Map.entry("l", "-9223372036854775808"), Map.entry("f", "-0.25"), Map.entry("flag", "true"), Map.entry("dec", "-10.25"),
        Map.entry("d", "2026-02-28"), Map.entry("ts", "2026-03-01T12:34:56.789012Z"), Map.entry("ntz", "2026-03-01 12:34:56.789012"));
    assertThat(fileOf(table.snapshot(), "s", "x").partitionValues()).containsEntry("ts", "1970-01-01T00:00:00.000000Z")
        .containsEntry("ntz", "1969-12-31 23:59:59").containsEntry("f", "1.0E10");
    AddFile allNull = fileOf(table.snapshot(), "s", null);
    assertThat(allNull.partitionValues().keySet()).containsExactlyElementsOf(ALL_PARTITIONS);
    assertThat(allNull.partitionValues().values()).containsOnlyNulls();
    assertThat(LogPaths.decode(allNull.path())).startsWith(ALL_PARTITIONS.stream()
        .map(column -> column + "=__HIVE_DEFAULT_PARTITION__/").collect(Collectors.joining()));
    assertThat(LogPaths.decode(fileOf(table.snapshot(), "s", "a b/c=d%e:é").path()))
        .as("Spark's escaping of directory names").startsWith("s=a b%2Fc%3Dd%25e%3Aé/b=-7/i=42/");
  }

  @Test
  void dataFilesHoldOnlyTheDataColumnsAndLieInTheirPartitionsDirectory() throws Exception {
    DeltaTable table = create("layout", ORDERS, List.of("region", "day"), MergeStrategy.DELETION_VECTORS);
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS)).commit(ChangeSet.builder()
        .upsert(order(1, "eu", 3)).upsert(order(2, "a b/c=d%e", 4)).build());

    for (AddFile file : table.snapshot().files().values()) {
      Path path = Path.of(LogPaths.resolve(table.root(), file.path()));
      assertThat(path.getParent().getFileName().toString()).isEqualTo("day=" + file.partitionValues().get("day"));
      try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(path.toUri()),
          new org.apache.hadoop.conf.Configuration()))) {
        assertThat(reader.getFooter().getFileMetaData().getSchema().getFields()).extracting(f -> f.getName())
            .containsExactly("id", "name");
      }
      assertThat(file.stats()).doesNotContain("region").doesNotContain("\"day\"");
    }
    assertThat(Files.isDirectory(dir.resolve("layout/region=a b%2Fc%3Dd%25e/day=2026-01-05"))).isTrue();
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void rowsWhosePartitionValueChangesMoveAndEveryKeyKeepsOneLiveRow(MergeStrategy strategy) throws Exception {
    DeltaTable table = create("moves-" + strategy, ORDERS, List.of("region", "day"), strategy);
    Map<Long, Row> model = new HashMap<>();
    Random random = new Random(16);
    TableWriter writer = table.newWriter(WriterOptions.defaults(strategy));
    for (int round = 0; round < 12; round++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      Map<Long, Row> batch = new LinkedHashMap<>();
      for (int i = 0; i < 40; i++) {
        long id = random.nextInt(60);
        batch.put(id, random.nextInt(6) == 0 ? null : order(id, REGIONS.get(random.nextInt(REGIONS.size())), random.nextInt(3)));
      }
      batch.forEach((id, row) -> {
        if (row == null) {
          changes.delete(Row.of(id));
          model.remove(id);
        } else {
          changes.upsert(row);
          model.put(id, row);
        }
      });
      writer.commit(changes.txn("app:orders:0", writer.snapshot().txnVersion("app:orders:0"), round).build());
    }

    List<Row> rows = KernelTables.readRows(table.root());
    assertThat(rows).as("one live row per key").hasSize(model.size());
    assertThat(new HashSet<>(rows)).isEqualTo(new HashSet<>(model.values()));
    Snapshot snapshot = table.snapshot();
    for (AddFile file : snapshot.files().values()) {
      assertThat(LogPaths.decode(file.path())).startsWith("region=");
    }
    assertThat(snapshot.files().values().stream().map(f -> f.partitionValues().get("region")).collect(Collectors.toSet()))
        .hasSizeGreaterThan(1);
  }

  @Test
  void appendsGoToThePartitionsOfTheirRows() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("append").toString());
    table.createIfAbsent(TableSpec.append(ORDERS, List.of(), List.of("region"), Map.of()));
    TableWriter writer = table.newAppendWriter(WriterOptions.defaults());
    writer.commit(ChangeSet.builder().upsert(order(1, "eu", 0)).upsert(order(1, "us", 1)).upsert(order(2, null, 2)).build());

    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(order(1, "eu", 0), order(1, "us", 1), order(2, null, 2));
    assertThat(table.snapshot().files().values()).extracting(f -> f.partitionValues().get("region"))
        .containsExactlyInAnyOrder("eu", "us", null);
  }

  @Test
  void compactionBinPacksWithinEachPartitionAndVacuumRemovesTheInputs() throws Exception {
    DeltaTable table = create("compact", ORDERS, List.of("region"), MergeStrategy.DELETION_VECTORS);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    Map<Long, Row> model = new HashMap<>();
    for (int round = 0; round < 6; round++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      for (long id = round * 10; id < round * 10 + 10; id++) {
        Row row = order(id, REGIONS.get((int) (id % 3)), 0);
        changes.upsert(row);
        model.put(id, row);
      }
      writer.commit(changes.build());
    }
    int before = table.snapshot().files().size();

    CompactionResult result = new Compactor(new LocalStorage(), CompactionOptions.defaults().withMinSmallFiles(2))
        .compact(table.snapshot());

    assertThat(result).isInstanceOf(CompactionResult.Compacted.class);
    Snapshot compacted = table.snapshot();
    assertThat(compacted.files()).hasSize(3).hasSizeLessThan(before);
    for (AddFile file : compacted.files().values()) {
      assertThat(LogPaths.decode(file.path())).startsWith("region=" + file.partitionValues().get("region") + "/");
    }
    assertThat(new HashSet<>(KernelTables.readRows(table.root()))).isEqualTo(new HashSet<>(model.values()));

    Vacuum vacuum = new Vacuum(new LocalStorage());
    int deleted = vacuum.execute(vacuum.plan(compacted, Duration.ZERO, System.currentTimeMillis() + 1));
    assertThat(deleted).isEqualTo(before);
    try (Stream<Path> files = Files.walk(dir.resolve("compact"))) {
      assertThat(files.filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log"))).hasSize(3);
    }
    assertThat(new HashSet<>(KernelTables.readRows(table.root()))).isEqualTo(new HashSet<>(model.values()));
  }

  private DeltaTable create(String name, StructType schema, List<String> partitions, MergeStrategy strategy) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve(name).toString());
    table.createIfAbsent(new TableSpec(schema, List.of("id"), partitions, strategy, Map.of()));
    return table;
  }

  private static Row order(long id, String region, int day) {
    return Row.of(id, "name-" + id, region, (int) LocalDate.of(2026, 1, 1).plusDays(day).toEpochDay());
  }

  private static AddFile fileOf(Snapshot snapshot, String column, String value) {
    return snapshot.files().values().stream().filter(f -> java.util.Objects.equals(f.partitionValues().get(column), value))
        .findFirst().orElseThrow();
  }
}
