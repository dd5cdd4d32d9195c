package io.mergesink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.PaimonTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE = "customers";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final KafkaPartition P1 = new KafkaPartition(ChangeRecords.TOPIC, 1);
  private static final String POSITION_P0 = "sink:" + ChangeRecords.TOPIC + ":0";
  private static final String POSITION_P1 = "sink:" + ChangeRecords.TOPIC + ":1";

  @TempDir Path dir;
  private final Map<Long, String> model = new TreeMap<>();

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

  /**
   * Three commits of the engine into {@code <dir>/lake/default.db/customers}: keys 0..7 from
   * partition 0; keys 0..2 replaced and key 3 deleted; key 100 from partition 1. Returns the table's path.
   */
  private String write(Map<String, String> tableProperties) throws Exception {
    String root = dir.resolve("lake").toString();
    IngestOptions options = IngestOptions.builder(root, "sink").tableFormat(TableFormatName.PAIMON).tableNameFormat("${source.table}")
        .commitInterval(Duration.ZERO).tableProperties(tableProperties).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0, P1));
      for (long offset = 0; offset < 8; offset++) {
        engine.accept(upsert(0, offset, offset, "v" + offset));
      }
      engine.flush();
      for (long offset = 8; offset < 11; offset++) {
        engine.accept(upsert(0, offset, offset - 8, "w" + offset));
      }
      model.remove(3L);
      engine.accept(ChangeRecords.delete(0, 11, TABLE, 3));
      engine.flush();
      engine.accept(upsert(1, 0, 100, "p1"));
      engine.flush();
    }
    return root + "/default.db/" + TABLE;
  }

  private KafkaRecord upsert(int partition, long offset, long id, String name) {
    model.put(id, name);
    return ChangeRecords.upsert(partition, offset, TABLE, id, name);
  }

  /** The rows {@code scan} prints as JSON lines: id → name. */
  private Map<Long, String> scan(String... args) throws Exception {
    CliRun result = run(args);
    assertThat(result.code()).as(result.err()).isZero();
    Map<Long, String> rows = new HashMap<>();
    for (String line : result.out().lines().toList()) {
      JsonNode row = JSON.readTree(line);
      assertThat(rows.put(row.get("id").asLong(), row.get("name").asText())).as("each key once").isNull();
    }
    return new TreeMap<>(rows);
  }

  private static JsonNode json(String... args) throws Exception {
    return CliRun.json(args);
  }

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }
}
