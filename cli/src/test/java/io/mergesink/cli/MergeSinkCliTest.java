package io.mergesink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command over a real table written by merge-core, in text and --json. */
class MergeSinkCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("amount", new DecimalType(10, 2), true),
      new StructField("day", PrimitiveType.DATE, true),
      new StructField("at", PrimitiveType.TIMESTAMP, true),
      new StructField("tags", new ArrayType(PrimitiveType.STRING, true), true));
  private static final int COMMITS = 12;

  @TempDir Path dir;
  private String root;

  /** 12 commits of 10 rows each over partition 0's txn; then 40 % of the first commit's rows deleted. */
  @BeforeEach
  void table() throws Exception {
    root = dir.resolve("orders").toString();
    DeltaTable table = DeltaTable.forPath(HadoopStorage.withDefaults(), root);
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    for (int commit = 1; commit <= COMMITS; commit++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      for (int i = 0; i < 10; i++) {
        long id = commit * 100L + i;
        changes.upsert(Row.of(id, "name, \"" + id + "\"", new BigDecimal("12.50"), 20_454, 1_767_225_600_000_000L + id,
            new ArrayList<>(List.of("a", "b"))));
      }
      writer.commit(changes.txn("orders-sink:orders:0", writer.snapshot().txnVersion("orders-sink:orders:0"), commit * 10L).build());
    }
    writer.commit(ChangeSet.builder().delete(Row.of(100L)).delete(Row.of(101L)).delete(Row.of(102L)).delete(Row.of(103L))
        .txn("orders-sink:orders:1", OptionalLong.empty(), 7).build());
  }

  @Test
  void describeShowsSchemaKeyFilesRowsAndDeletionVectors() throws Exception {
    CliRun text = run("describe", root);
    assertThat(text.code()).isZero();
    assertThat(text.out()).contains("primary key  id", "amount               decimal(10,2)", "files        12", "116 live", "4 deleted",
        "1 files above 0.25", "small files  12 below 128.0 MiB");

    JsonNode json = json("describe", root, "--json");
    assertThat(json.get("version").asLong()).isEqualTo(COMMITS + 1);
    assertThat(json.get("primaryKey").get(0).asText()).isEqualTo("id");
    assertThat(json.at("/files/count").asInt()).isEqualTo(12);
    assertThat(json.at("/rows/live").asLong()).isEqualTo(116);
    assertThat(json.at("/deletionVectors/filesWithDeletionVectors").asInt()).isEqualTo(1);
    assertThat(json.at("/deletionVectors/maxDeletedFraction").asDouble()).isEqualTo(0.4);
    assertThat(json.at("/protocol/readerFeatures").toString()).contains("deletionVectors");
    assertThat(json.at("/schema/2/type").asText()).isEqualTo("decimal(10,2)");
  }

  @Test
  void historyListsCommitsNewestFirstWithOffsets() throws Exception {
    JsonNode history = json("history", root, "--json", "--limit", "3");
    assertThat(history).hasSize(3);
    assertThat(history.get(0).get("version").asLong()).isEqualTo(COMMITS + 1);
    assertThat(history.get(0).get("filesRemoved").asInt()).isEqualTo(1);
    assertThat(history.get(0).get("rowsRemoved").asLong()).isEqualTo(4);
    assertThat(history.get(0).at("/offsets/orders-sink:orders:1").asLong()).isEqualTo(7);
    assertThat(history.get(1).get("rowsAdded").asLong()).isEqualTo(10);
    assertThat(history.get(1).get("filesAdded").asInt()).isEqualTo(1);
    assertThat(history.get(1).at("/offsets/orders-sink:orders:0").asLong()).isEqualTo(120);

    CliRun text = run("history", root);
    assertThat(text.out().lines()).hasSize(COMMITS + 3);
    assertThat(text.out().lines().skip(1).findFirst().orElseThrow()).startsWith(Long.toString(COMMITS + 1)).contains("orders-sink:orders:1=7");
  }

  @Test
  void offsetsListEveryTxn() throws Exception {
    JsonNode offsets = json("offsets", root, "--json");
    assertThat(offsets.get("txns")).hasSize(2);
    assertThat(offsets.at("/txns/0/appId").asText()).isEqualTo("orders-sink:orders:0");
    assertThat(offsets.at("/txns/0/version").asLong()).isEqualTo(120);
    assertThat(run("offsets", root).out()).contains("orders-sink:orders:1", " 7 ");
  }

  @Test
  void scanPrintsLiveRowsAsJsonLinesOrCsvWithProjectionAndLimit() throws Exception {
    CliRun jsonLines = run("scan", root);
    List<JsonNode> rows = new ArrayList<>();
    for (String line : jsonLines.out().lines().toList()) {
      rows.add(JSON.readTree(line));
    }
    assertThat(rows).hasSize(116);
    assertThat(rows).noneMatch(row -> row.get("id").asLong() == 100);
    JsonNode first = rows.stream().filter(row -> row.get("id").asLong() == 105).findFirst().orElseThrow();
    assertThat(first.get("amount").decimalValue()).isEqualByComparingTo("12.50");
    assertThat(first.get("day").asText()).isEqualTo("2026-01-01");
    assertThat(first.get("at").asText()).isEqualTo("2026-01-01T00:00:00.000105Z");
    assertThat(first.get("tags").toString()).isEqualTo("[\"a\",\"b\"]");

    CliRun csv = run("scan", root, "--format", "csv", "--columns", "id,name", "--limit", "5");
    assertThat(csv.code()).as(csv.err()).isZero();
    List<String> lines = csv.out().lines().toList();
    assertThat(lines).hasSize(6);
    assertThat(lines.get(0)).isEqualTo("id,name");
    assertThat(lines.get(1)).matches("\\d+,\"name, \"\"\\d+\"\"\"");
  }

  @Test
  void compactRewritesSmallFilesAndDenseDeletionVectorsAndKeepsTheRows() throws Exception {
    var before = new HashSet<>(KernelTables.readRows(root));
    JsonNode plan = json("compact", root, "--dry-run", "--json");
    assertThat(plan.get("inputFiles").asInt()).isEqualTo(12);
    assertThat(KernelTables.latestVersion(root)).isEqualTo(COMMITS + 1);

    JsonNode result = json("compact", root, "--json");
    assertThat(result.get("outcome").asText()).isEqualTo("compacted");
    assertThat(result.get("filesRemoved").asInt()).isEqualTo(12);
    assertThat(result.get("filesAdded").asInt()).isEqualTo(1);
    assertThat(result.get("rowsPurged").asLong()).isEqualTo(4);
    assertThat(new HashSet<>(KernelTables.readRows(root))).isEqualTo(before);
    assertThat(json("describe", root, "--json").at("/files/count").asInt()).isEqualTo(1);
    assertThat(run("compact", root).out()).startsWith("nothing to compact");
    assertThat(json("history", root, "--json", "-n", "1").get(0).get("operation").asText()).isEqualTo("OPTIMIZE");
  }

  @Test
  void vacuumDryRunListsExactlyWhatVacuumDeletes() throws Exception {
    run("compact", root);
    Path orphan = dir.resolve("orders/part-orphan.zstd.parquet");
    Files.write(orphan, new byte[] {1});
    Files.setLastModifiedTime(orphan, FileTime.fromMillis(System.currentTimeMillis() - Duration.ofDays(30).toMillis()));

    JsonNode dryRun = json("vacuum", root, "--json", "--dry-run");
    assertThat(dryRun.get("files")).extracting(f -> f.get("path").asText()).containsExactly("part-orphan.zstd.parquet");
    assertThat(Files.exists(orphan)).isTrue();

    CliRun refused = run("vacuum", root, "--retain-hours", "0");
    assertThat(refused.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(refused.err().lines()).hasSize(1);
    assertThat(refused.err()).contains("--force");

    JsonNode shortDry = json("vacuum", root, "--json", "--dry-run", "--retain-hours", "0", "--force");
    List<String> wouldDelete = new ArrayList<>();
    shortDry.get("files").forEach(f -> wouldDelete.add(f.get("path").asText()));
    assertThat(wouldDelete).hasSizeGreaterThan(12).contains("part-orphan.zstd.parquet");
    JsonNode deleted = json("vacuum", root, "--json", "--retain-hours", "0", "--force");
    List<String> deletedPaths = new ArrayList<>();
    deleted.get("files").forEach(f -> deletedPaths.add(f.get("path").asText()));
    assertThat(deletedPaths).isEqualTo(wouldDelete);
    assertThat(deleted.get("deleted").asInt()).isEqualTo(wouldDelete.size());
    for (String path : wouldDelete) {
      assertThat(dir.resolve("orders").resolve(path)).doesNotExist();
    }
    assertThat(KernelTables.readRows(root)).hasSize(116);
  }

  @Test
  void checkpointWritesACheckpointKernelReads() throws Exception {
    JsonNode result = json("checkpoint", root, "--json");
    assertThat(result.get("checkpointVersion").asLong()).isEqualTo(COMMITS + 1);
    assertThat(result.get("deletedLogFiles")).isEmpty();
    assertThat(dir.resolve("orders/_delta_log/00000000000000000013.checkpoint.parquet")).exists();
    assertThat(KernelTables.readRows(root)).hasSize(116);
    assertThat(KernelTables.txnVersion(root, "orders-sink:orders:0")).contains(120L);
    assertThat(run("checkpoint", root).out()).contains("checkpoint written at version 13");
  }

  @Test
  void errorsAreOneLineWithANonZeroExit() {
    CliRun missing = run("describe", dir.resolve("nope").toString());
    assertThat(missing.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(missing.err().lines()).hasSize(1);
    assertThat(missing.err()).startsWith("mergesink describe: error: ").contains("nope");
    assertThat(missing.out()).isEmpty();

    CliRun badColumn = run("scan", root, "--columns", "id,missing");
    assertThat(badColumn.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(badColumn.err().lines()).hasSize(1);
    assertThat(badColumn.err()).contains("no column 'missing'");

    CliRun usage = run("describe");
    assertThat(usage.code()).isEqualTo(MergeSinkCli.EXIT_USAGE);
    assertThat(usage.err().lines()).hasSize(1);
    CliRun unknown = run("frobnicate", root);
    assertThat(unknown.code()).isEqualTo(MergeSinkCli.EXIT_USAGE);
  }

  private static JsonNode json(String... args) throws Exception {
    return CliRun.json(args);
  }

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }
}
