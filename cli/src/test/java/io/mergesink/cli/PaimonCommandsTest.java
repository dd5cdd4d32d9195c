package io.mergesink.cli;

import static io.mergesink.cli.CustomerCommits.POSITION_P0;
import static io.mergesink.cli.CustomerCommits.POSITION_P1;
import static io.mergesink.cli.CustomerCommits.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.testing.PaimonTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands on Paimon primary-key tables the sink's engine wrote, by the table's path in the
 * filesystem catalog ({@code <warehouse>/<database>.db/<table>}, detected, or named with
 * {@code --table-format paimon}): positions are what the engine committed, rows what Paimon's reader
 * reads and the model holds, the history Paimon's snapshots (each commit's rows, then the compaction
 * that makes them visible to deletion-vector readers).
 */
class PaimonCommandsTest {
  @TempDir Path dir;
  private Map<Long, String> model;

  @Test
  void aTableWithDeletionVectorsShowsWhatTheSinkCommitted() throws Exception {
    String path = write(Map.of());
    FileStoreTable table = PaimonTables.loadAt(path).orElseThrow();
    long latest = table.snapshotManager().latestSnapshotId();

    JsonNode description = json("describe", path, "--json");
    assertThat(description.get("format").asText()).isEqualTo("paimon");
    assertThat(description.get("identifier").asText()).isEqualTo("default." + TABLE);
    assertThat(description.get("version").asLong()).isEqualTo(latest);
    assertThat(description.at("/latestSnapshot/id").asLong()).isEqualTo(latest);
    assertThat(description.at("/latestSnapshot/commitKind").asText()).as("each commit compacts what it wrote").isEqualTo("COMPACT");
    assertThat(description.get("primaryKey").toString()).isEqualTo("[\"id\"]");
    assertThat(description.at("/schema/0/name").asText()).isEqualTo("id");
    assertThat(description.at("/schema/0/type").asText()).isEqualTo("BIGINT NOT NULL");
    assertThat(description.get("deletionVectorsEnabled").asBoolean()).isTrue();
    assertThat(description.get("mergeEngine").asText()).isEqualTo("deduplicate");
    assertThat(description.get("bucket").asInt()).isEqualTo(4);
    assertThat(description.at("/files/level0").asLong()).as("every commit compacted level 0").isZero();
    assertThat(description.at("/rows/live").asLong()).isEqualTo(model.size()).isEqualTo(PaimonTables.readRows(table).size());
    assertThat(description.at("/rows/deleted").asLong()).as("the replaced and deleted rows, marked in deletion vectors").isPositive();
    assertThat(description.at("/deletionVectors/filesWithDeletionVectors").asInt()).isPositive();
    assertThat(description.get("snapshots").asLong()).isEqualTo(latest);
    assertThat(description.get("positions").asInt()).isEqualTo(2);
    CliRun text = run("describe", path);
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains("paimon (default." + TABLE + "), 4 buckets, merge engine deduplicate, deletion vectors on",
        "primary key  id", model.size() + " live");

    JsonNode offsets = json("offsets", path, "--json");
    assertThat(offsets.get("tableVersion").asLong()).isEqualTo(latest);
    Map<String, Long> printed = new TreeMap<>();
    offsets.get("txns").forEach(txn -> printed.put(txn.get("appId").asText(), txn.get("version").asLong()));
    assertThat(printed).isEqualTo(PaimonTables.positions(table)).containsOnly(Map.entry(POSITION_P0, 11L), Map.entry(POSITION_P1, 0L));
    assertThat(offsets.at("/txns/0/lastUpdated").asText()).isNotEmpty();
    assertThat(run("offsets", path).out()).contains(POSITION_P0, " 11 ");

    JsonNode history = json("history", path, "--json");
    assertThat(history).hasSize((int) latest);
    assertThat(history.get(0).get("version").asLong()).isEqualTo(latest);
    List<String> moved = new ArrayList<>();
    history.forEach(entry -> {
      if (!entry.get("offsets").isEmpty()) {
        moved.add(entry.get("offsets").toString());
      }
    });
    assertThat(moved).as("the offsets each commit moved, newest first; its compaction moves none")
        .containsExactly("{\"" + POSITION_P1 + "\":0}", "{\"" + POSITION_P0 + "\":11}", "{\"" + POSITION_P0 + "\":7}");
    JsonNode first = history.get(history.size() - 1);
    assertThat(first.get("operation").asText()).isEqualTo("APPEND");
    assertThat(first.get("rowsAdded").asLong()).isEqualTo(8);
    List<String> lines = run("history", path, "-n", "1").out().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).startsWith(latest + " ").contains("COMPACT");

    assertThat(scan("scan", path)).isEqualTo(model);
    CliRun csv = run("scan", path, "--table-format", "paimon", "--format", "csv", "--columns", "name,id", "--limit", "2");
    assertThat(csv.code()).as(csv.err()).isZero();
    assertThat(csv.out().lines()).hasSize(3).first().isEqualTo("name,id");
  }

  @Test
  void aTableMergedOnReadHasNoLiveRowCountButScansTheModel() throws Exception {
    String path = write(Map.of("deletion-vectors.enabled", "false"));

    JsonNode description = json("describe", path, "--json");
    assertThat(description.get("deletionVectorsEnabled").asBoolean()).isFalse();
    assertThat(description.at("/rows/live").isNull()).as("which rows are live takes merging them").isTrue();
    assertThat(description.at("/deletionVectors/filesWithDeletionVectors").asInt()).isZero();
    assertThat(run("describe", path).out()).contains("? (merged on read) live");
    assertThat(scan("scan", path)).isEqualTo(model);
  }

  @Test
  void maintenanceCommandsAndCatalogOptionsAreRefusedNamingTheFormat() throws Exception {
    String path = write(Map.of());

    for (String command : List.of("compact", "vacuum", "checkpoint")) {
      CliRun refused = run(command, path);
      assertThat(refused.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
      assertThat(refused.err().lines()).hasSize(1);
      assertThat(refused.err()).contains("mergesink " + command + " does not work on Paimon tables; " + path + " is a Paimon table");
    }
    CliRun withCatalog = run("describe", path, "--table-format", "paimon", "--catalog", "type=jdbc");
    assertThat(withCatalog.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(withCatalog.err()).contains("a Paimon table is opened by its path alone");
    CliRun notInCatalog = run("describe", dir.resolve("lake/" + TABLE).toString(), "--table-format", "paimon");
    assertThat(notInCatalog.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(notInCatalog.err()).contains("<warehouse>/<database>.db/<table>");
  }

  /** The engine's {@link CustomerCommits} into {@code <dir>/lake/default.db/customers}; returns the table's path. */
  private String write(Map<String, String> tableProperties) {
    String root = dir.resolve("lake").toString();
    model = CustomerCommits.write(IngestOptions.builder(root, "sink").tableFormat(TableFormatName.PAIMON).tableNameFormat("${source.table}")
        .commitInterval(Duration.ZERO).tableProperties(tableProperties).build());
    return root + "/default.db/" + TABLE;
  }

  private static Map<Long, String> scan(String... args) throws Exception {
    return CustomerCommits.scan(args);
  }

  private static JsonNode json(String... args) throws Exception {
    return CliRun.json(args);
  }

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }
}
