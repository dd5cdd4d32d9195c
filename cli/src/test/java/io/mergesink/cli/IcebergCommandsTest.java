package io.mergesink.cli;

import static io.mergesink.cli.CustomerCommits.POSITION_P0;
import static io.mergesink.cli.CustomerCommits.POSITION_P1;
import static io.mergesink.cli.CustomerCommits.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mergesink.ingest.config.IcebergOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.testing.IcebergTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands on Iceberg tables the sink's engine wrote: a Hadoop catalog's table by its path
 * (detected, or named with {@code --table-format iceberg}), and a table of a JDBC catalog in a SQLite
 * file by {@code --catalog}. Positions are what the engine committed, rows what Iceberg's generic
 * reader reads and the model holds; compaction drops the deletion vectors (v2: position delete
 * files) and keeps both.
 */
class IcebergCommandsTest {
  @TempDir Path dir;
  private Map<Long, String> model;

  @Test
  void aHadoopTableByItsPathShowsWhatTheSinkCommittedAndCompactionKeepsRowsAndPositions() throws Exception {
    String warehouse = dir.resolve("lake").toString();
    write(IcebergOptions.defaults(), warehouse, Map.of());
    String path = dir.resolve("lake/default/" + TABLE).toString();
    Table table = IcebergTables.load(path);

    JsonNode description = json("describe", path, "--json");
    assertThat(description.get("format").asText()).isEqualTo("iceberg");
    assertThat(description.get("formatVersion").asInt()).isEqualTo(3);
    assertThat(description.get("version").asLong()).isEqualTo(table.currentSnapshot().sequenceNumber()).isEqualTo(3);
    assertThat(description.at("/currentSnapshot/id").asLong()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(description.get("primaryKey").toString()).isEqualTo("[\"id\"]");
    assertThat(description.at("/schema/0/name").asText()).isEqualTo("id");
    assertThat(description.at("/schema/0/type").asText()).isEqualTo("long");
    assertThat(description.at("/files/count").asInt()).isEqualTo(3);
    assertThat(description.at("/rows/live").asLong()).isEqualTo(model.size());
    assertThat(description.at("/rows/deleted").asLong()).isEqualTo(4);
    assertThat(description.at("/deletes/deletionVectors").asInt()).isEqualTo(1);
    assertThat(description.at("/deletes/dataFilesWithDeletes").asInt()).isEqualTo(1);
    assertThat(description.at("/deletes/maxDeletedFraction").asDouble()).isEqualTo(0.5);
    assertThat(description.at("/deletes/denseFiles").asInt()).isEqualTo(1);
    assertThat(description.get("positions").asInt()).isEqualTo(2);
    CliRun text = run("describe", path);
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains("iceberg, format version 3", "primary key  id (identifier fields)", "files        3",
        model.size() + " live", "1 deletion vectors");

    JsonNode offsets = json("offsets", path, "--json");
    assertThat(offsets.get("tableVersion").asLong()).isEqualTo(3);
    Map<String, Long> printed = new TreeMap<>();
    offsets.get("txns").forEach(txn -> printed.put(txn.get("appId").asText(), txn.get("version").asLong()));
    assertThat(printed).isEqualTo(IcebergTables.positions(table)).containsOnly(Map.entry(POSITION_P0, 11L), Map.entry(POSITION_P1, 0L));
    assertThat(offsets.at("/txns/0/lastUpdated").asText()).isNotEmpty();
    assertThat(run("offsets", path).out()).contains(POSITION_P0, " 11 ");

    JsonNode history = json("history", path, "--json");
    assertThat(history).hasSize(3);
    assertThat(history.get(0).get("version").asLong()).isEqualTo(3);
    assertThat(history.get(0).get("offsets").toString()).as("only the position the commit moved").isEqualTo("{\"" + POSITION_P1 + "\":0}");
    assertThat(history.get(1).get("offsets").toString()).isEqualTo("{\"" + POSITION_P0 + "\":11}");
    assertThat(history.get(1).get("rowsAdded").asLong()).isEqualTo(3);
    assertThat(history.get(1).get("rowsRemoved").asLong()).as("3 rows replaced, 1 deleted").isEqualTo(4);
    assertThat(history.get(2).get("rowsAdded").asLong()).isEqualTo(8);
    assertThat(history.get(2).get("filesAdded").asInt()).isEqualTo(1);
    List<String> lines = run("history", path, "-n", "1").out().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).startsWith("3 ").contains(POSITION_P1 + "=0");

    assertThat(scan("scan", path)).isEqualTo(model);
    CliRun csv = run("scan", path, "--table-format", "iceberg", "--format", "csv", "--columns", "name,id", "--limit", "2");
    assertThat(csv.code()).as(csv.err()).isZero();
    assertThat(csv.out().lines()).hasSize(3).first().isEqualTo("name,id");

    JsonNode compacted = json("compact", path, "--json");
    assertThat(compacted.get("outcome").asText()).isEqualTo("compacted");
    assertThat(compacted.get("rowsPurged").asLong()).isEqualTo(4);
    assertThat(compacted.get("filesRemoved").asInt()).as("the file half of whose rows are deleted").isEqualTo(1);
    table.refresh();
    assertThat(IcebergTables.liveDeleteFiles(table)).isEmpty();
    assertThat(json("describe", path, "--json").at("/deletes/deleteFiles").asInt()).isZero();
    assertThat(scan("scan", path)).isEqualTo(model);
    assertThat(IcebergTables.positions(table)).containsOnly(Map.entry(POSITION_P0, 11L), Map.entry(POSITION_P1, 0L));
    assertThat(json("history", path, "--json", "-n", "1").get(0).get("operation").asText()).isEqualTo("replace");
    assertThat(run("compact", path).out()).startsWith("nothing to compact at version 4");
  }

  @Test
  void aJdbcCatalogsTableByItsIdentifierAndCatalogProperties() throws Exception {
    String warehouse = dir.resolve("warehouse").toString();
    Map<String, String> catalog = Map.of("type", "jdbc", "uri", "jdbc:sqlite:" + dir.resolve("catalog.db"), "warehouse", warehouse);
    write(new IcebergOptions("lake", catalog, "crm"), warehouse, Map.of());
    TableIdentifier crmCustomers = TableIdentifier.of("crm", TABLE);
    List<String> catalogArgs = new ArrayList<>(List.of("--catalog-name", "lake"));
    catalog.forEach((key, value) -> catalogArgs.addAll(List.of("--catalog", key + "=" + value)));
    String identifier = "crm." + TABLE;

    JsonNode offsets = json(args("offsets", identifier, catalogArgs, "--json"));
    Map<String, Long> printed = new TreeMap<>();
    offsets.get("txns").forEach(txn -> printed.put(txn.get("appId").asText(), txn.get("version").asLong()));
    assertThat(printed).isEqualTo(inCatalog("lake", catalog, crmCustomers, IcebergTables::positions))
        .containsOnly(Map.entry(POSITION_P0, 11L), Map.entry(POSITION_P1, 0L));
    assertThat(json(args("describe", identifier, catalogArgs, "--json")).get("identifier").asText()).isEqualTo("lake.crm." + TABLE);
    assertThat(scan(args("scan", identifier, catalogArgs))).isEqualTo(model);

    assertThat(json(args("compact", identifier, catalogArgs, "--json")).get("outcome").asText()).isEqualTo("compacted");
    assertThat(scan(args("scan", identifier, catalogArgs))).isEqualTo(model);
    assertThat(inCatalog("lake", catalog, crmCustomers, IcebergTables::liveDeleteFiles)).isEmpty();
    assertThat(inCatalog("lake", catalog, crmCustomers, IcebergTables::positions))
        .containsOnly(Map.entry(POSITION_P0, 11L), Map.entry(POSITION_P1, 0L));

    CliRun missing = run(args("describe", "crm.nope", catalogArgs));
    assertThat(missing.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(missing.err().lines()).hasSize(1);
    assertThat(missing.err()).contains("no Iceberg table crm.nope in catalog lake");
  }

  @Test
  void aVersion2TablesPositionDeleteFilesAreCountedAndCompactedAway() throws Exception {
    write(IcebergOptions.defaults(), dir.resolve("lake").toString(), Map.of("format-version", "2"));
    String path = dir.resolve("lake/default/" + TABLE).toString();

    JsonNode deletes = json("describe", path, "--json").get("deletes");
    assertThat(deletes.get("positionDeleteFiles").asInt()).isEqualTo(1);
    assertThat(deletes.get("deletionVectors").asInt()).isZero();
    assertThat(deletes.get("deletedRows").asLong()).isEqualTo(4);

    assertThat(run("compact", path).out()).startsWith("compacted 1 files");
    JsonNode after = json("describe", path, "--json");
    assertThat(after.at("/deletes/deleteFiles").asInt()).isZero();
    assertThat(after.at("/rows/live").asLong()).isEqualTo(model.size());
    assertThat(scan("scan", path)).isEqualTo(model);
  }

  @Test
  void deltaOnlyCommandsAndOptionsAreRefusedNamingTheFormat() throws Exception {
    write(IcebergOptions.defaults(), dir.resolve("lake").toString(), Map.of());
    String path = dir.resolve("lake/default/" + TABLE).toString();

    CliRun refused = run("checkpoint", path);
    assertThat(refused.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(refused.err().lines()).hasSize(1);
    assertThat(refused.err()).contains("mergesink checkpoint works on Delta tables; " + path + " is an Iceberg table");
    CliRun dryRun = run("compact", path, "--dry-run");
    assertThat(dryRun.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(dryRun.err()).contains("--dry-run applies to Delta tables");
    CliRun asDelta = run("describe", path, "--table-format", "delta");
    assertThat(asDelta.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(asDelta.err()).contains("Delta table");
  }

  @Test
  void vacuumDeletesOrphanFilesPastTheRetentionAndNothingTheTableReferences() throws Exception {
    write(IcebergOptions.defaults(), dir.resolve("lake").toString(), Map.of());
    Path table = dir.resolve("lake/default/" + TABLE);
    Path orphan = Files.writeString(table.resolve("data/00000-7-crashed-00001.parquet"), "left by a crash");
    Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(Duration.ofDays(4))));
    Path young = Files.writeString(table.resolve("data/00000-7-in-flight-00001.parquet"), "a commit in flight");
    Map<Long, String> rows = scan("scan", table.toString());

    CliRun shortRetention = run("vacuum", table.toString(), "--retain-hours", "1");
    assertThat(shortRetention.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(shortRetention.err()).contains("--force");
    JsonNode dryRun = json("vacuum", table.toString(), "--dry-run", "--json");
    assertThat(dryRun.get("files")).hasSize(1);
    assertThat(dryRun.get("files").get(0).asText()).endsWith(orphan.getFileName().toString());
    assertThat(orphan).exists();

    JsonNode vacuumed = json("vacuum", table.toString(), "--json");
    assertThat(vacuumed.get("deleted").asInt()).isEqualTo(1);
    assertThat(orphan).doesNotExist();
    assertThat(young).exists();
    assertThat(scan("scan", table.toString())).isEqualTo(rows).isEqualTo(model);
  }

  /** The engine's {@link CustomerCommits} into an Iceberg table. */
  private void write(IcebergOptions iceberg, String root, Map<String, String> tableProperties) {
    model = CustomerCommits.write(IngestOptions.builder(root, "sink").tableFormat(TableFormatName.ICEBERG).iceberg(iceberg)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).tableProperties(tableProperties).compaction(false, 0.25, 10)
        .build());
  }

  /** What {@code read} finds in the table {@code identifier} of a catalog opened for it alone. */
  private static <T> T inCatalog(String name, Map<String, String> properties, TableIdentifier identifier, Function<Table, T> read)
      throws Exception {
    Catalog catalog = CatalogUtil.buildIcebergCatalog(name, properties, new Configuration());
    try {
      return read.apply(catalog.loadTable(identifier));
    } finally {
      if (catalog instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }

  private static Map<Long, String> scan(String... args) throws Exception {
    return CustomerCommits.scan(args);
  }

  private static String[] args(String command, String table, List<String> options, String... more) {
    return Stream.of(Stream.of(command, table), options.stream(), Stream.of(more)).flatMap(s -> s).toArray(String[]::new);
  }

  private static JsonNode json(String... args) throws Exception {
    return CliRun.json(args);
  }

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }
}
