package io.mergesink.ingest.format.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.testing.TestHdfs;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.PaimonOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.ModelledChanges;
import io.mergesink.ingest.testing.PaimonTables;
import io.mergesink.ingest.testing.TestHiveMetastore;
import io.mergesink.localconnect.debezium.DebeziumTable;
import io.mergesink.localconnect.debezium.SourceField;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.GetTableRequest;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.kafka.connect.data.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paimon tables through Paimon's Hive catalog ({@code paimon.catalog.metastore=hive}) on the tests'
 * real metastore: the sink creates the database and the table, which the metastore then holds by
 * name as a Paimon table; upserts and deletes land, an engine started again resumes from the
 * snapshot positions, and a second engine on the same partition fences the first. Read back through
 * a Hive catalog of Paimon's own with its reader. The warehouse is on local disk, where Paimon's
 * commit is an atomic rename and takes no metastore lock.
 */
class PaimonOnHiveMetastoreTest {
  private static final String TABLE = "customers";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final String POSITION_0 = "sink:" + ChangeRecords.TOPIC + ":0";

  private final String database = TestHiveMetastore.newDatabaseName();
  private final ModelledChanges changes = new ModelledChanges(TABLE);

  @TempDir
  Path warehouse;

  @Test
  void upsertsLandInATableRegisteredInTheMetastoreAndAnEngineStartedAgainResumesFromItsPositions() throws Exception {
    changes.acrossARestart(this::engine);

    FileStoreTable table = PaimonTables.load(catalogOptions(), database, TABLE);
    assertThat(table.location().toString()).endsWith(warehouse + "/" + database + ".db/" + TABLE);
    assertThat(table.primaryKeys()).containsExactly("id");
    assertThat(table.options()).containsEntry("deletion-vectors.enabled", "true");
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.positions(table)).containsExactly(Map.entry(POSITION_0, changes.nextOffset() - 1));
    try (TestHiveMetastore.Connection metastore = TestHiveMetastore.connect()) {
      Table registered = metastore.client().get_table_req(new GetTableRequest(database, TABLE)).getTable();
      assertThat(registered.getParameters()).containsEntry("table_type", "PAIMON");
      assertThat(registered.getSd().getLocation()).isEqualTo(table.location().toString());
    }
  }

  /** On HDFS too: the files are in an {@code hdfs://} warehouse, reached with the connector's {@code hadoop.*} options. */
  @Test
  void onHdfsTheRegisteredTableHoldsTheChangesAndAnEngineStartedAgainResumesFromItsPositions() {
    String hdfsWarehouse = TestHdfs.hdfsRoot("paimon-hive-" + database);
    Map<String, String> hive = Map.of("metastore", "hive", "uri", TestHiveMetastore.uri().toString());
    changes.acrossARestart(() -> new IngestEngine(options(hdfsWarehouse, hive).storage(StorageOptions.hadoop(TestHdfs.hadoopOptions()))
        .build(), IngestMetrics.NONE));

    FileStoreTable table = PaimonTables.load(Map.of("metastore", "hive", "uri", TestHiveMetastore.uri().toString(), "warehouse",
        hdfsWarehouse), database, TABLE);
    assertThat(table.location().toString()).isEqualTo(hdfsWarehouse + "/" + database + ".db/" + TABLE);
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.positions(table)).containsExactly(Map.entry(POSITION_0, changes.nextOffset() - 1));
  }

  @Test
  void aSecondEngineOpeningThePartitionResumesFromThePositionsAndTheFirstIsFenced() throws Exception {
    try (IngestEngine zombie = engine(); IngestEngine owner = engine()) {
      zombie.open(List.of(P0));
      changes.upserts(zombie, 0, 4, "v");
      zombie.flush();

      assertThat(owner.open(List.of(P0))).containsExactly(Map.entry(P0, changes.nextOffset()));
      owner.seeksApplied();
      owner.accept(ChangeRecords.upsert(0, changes.nextOffset() - 1, TABLE, 0, "replayed")); // below the position: skipped
      changes.upserts(owner, 2, 6, "owner");
      owner.flush();

      zombie.accept(ChangeRecords.upsert(0, 5, TABLE, 1, "zombie"));
      assertThat(zombie.flush().seeks()).containsExactly(Map.entry(P0, changes.nextOffset()));
    }
    FileStoreTable table = PaimonTables.load(catalogOptions(), database, TABLE);
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.positions(table)).containsExactly(Map.entry(POSITION_0, changes.nextOffset() - 1));
  }

  /** Paimon's Hive catalog commits each schema change (columns, {@code sequence.field}) to the files, then alters the metastore's table. */
  @Test
  void aNewColumnAndAWiderTypeReachTheMetastoresColumnsAndTheOrderIsSetThroughTheCatalog() throws Exception {
    DebeziumTable before = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("qty", Schema.OPTIONAL_INT32_SCHEMA).key("id").source(SourceField.TABLE, SourceField.TS_MS).build();
    DebeziumTable after = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
        .column("qty", Schema.OPTIONAL_INT64_SCHEMA).column("email", Schema.OPTIONAL_STRING_SCHEMA).key("id")
        .source(SourceField.TABLE, SourceField.TS_MS).build();
    IngestOptions options = options(warehouse.toString(), Map.of("metastore", "hive", "uri", TestHiveMetastore.uri().toString()))
        .schemaEvolution(SchemaEvolution.WIDEN_TYPES).changeSemantics(new ChangeSemantics(UpsertOrder.parse("source.ts_ms"),
            DeleteMode.HARD, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX)).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.create(before, 0, before.newRow().put("id", 1L).put("qty", 5)));
      engine.flush();
      engine.accept(ChangeRecords.create(after, 1, after.newRow().put("id", 2L).put("qty", 5_000_000_000L).put("email", "b@x")));
      engine.flush();
    }
    FileStoreTable table = PaimonTables.load(catalogOptions(), database, TABLE);
    assertThat(table.coreOptions().sequenceField()).containsExactly("__source_ts_ms");
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrder(Row.of(1L, 5L, 0L, null), Row.of(2L, 5_000_000_000L, 1L, "b@x"));
    try (TestHiveMetastore.Connection metastore = TestHiveMetastore.connect()) {
      Table registered = metastore.client().get_table_req(new GetTableRequest(database, TABLE)).getTable();
      assertThat(registered.getSd().getCols()).extracting(FieldSchema::getName, FieldSchema::getType)
          .containsExactly(tuple("id", "bigint"), tuple("qty", "bigint"), tuple("__source_ts_ms", "bigint"), tuple("email", "string"));
    }
  }

  /** Hive's own tables share the metastore: the sink neither lists them as its tables nor writes over one. */
  @Test
  void theMetastoresPlainHiveTablesAreNotTheSinksAndOneInTheWayOfATableIsRefusedByName() throws Exception {
    createHiveTable("orders");
    createHiveTable(TABLE);

    try (IngestEngine engine = engine()) {
      assertThat(engine.open(List.of(P0))).as("no table of the sink holds a position").isEmpty();
      assertThatThrownBy(() -> engine.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "v"))).hasMessageContaining(database + "." + TABLE)
          .hasMessageContaining("not a paimon table");
    }
  }

  @Test
  void aHiveCatalogWithoutAThriftUriOrOnAnObjectStoreIsRefusedByName() {
    assertThatThrownBy(() -> new PaimonFormat(options(warehouse.toString(), Map.of("metastore", "hive")).build()))
        .isInstanceOf(FatalIngestException.class).hasMessageContaining("paimon.catalog.uri");
    Map<String, String> hive = Map.of("metastore", "hive", "uri", "thrift://127.0.0.1:9083");
    assertThatThrownBy(() -> new PaimonFormat(options("s3://bucket/lake", hive).build()))
        .isInstanceOf(FatalIngestException.class).hasMessageContaining("metastore=hive").hasMessageContaining("s3://bucket/lake");
    assertThatThrownBy(() -> new PaimonFormat(options(warehouse.toString(), Map.of("metastore", "jdbc")).build()))
        .isInstanceOf(FatalIngestException.class).hasMessageContaining("paimon.catalog.metastore=jdbc");
  }

  /** An external Hive table of Parquet files in the test's database, as Hive's {@code CREATE EXTERNAL TABLE} registers one. */
  private void createHiveTable(String name) throws TException {
    String databaseLocation = warehouse.resolve(database + ".db").toUri().toString();
    try (TestHiveMetastore.Connection metastore = TestHiveMetastore.connect()) {
      if (metastore.client().get_all_databases().stream().noneMatch(database::equals)) {
        metastore.client().create_database(new Database(database, "", databaseLocation, new HashMap<>()));
      }
      StorageDescriptor files = new StorageDescriptor();
      files.setCols(List.of(new FieldSchema("id", "bigint", null)));
      files.setLocation(databaseLocation + "/" + name);
      files.setInputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat");
      files.setOutputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat");
      files.setSerdeInfo(new SerDeInfo(name, "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe", new HashMap<>()));
      Table table = new Table();
      table.setDbName(database);
      table.setTableName(name);
      table.setTableType("EXTERNAL_TABLE");
      table.setParameters(new HashMap<>(Map.of("EXTERNAL", "TRUE")));
      table.setPartitionKeys(List.of());
      table.setSd(files);
      metastore.client().create_table(table);
    }
  }

  /** The options of a reader's catalog: Paimon's Hive catalog on the same metastore and warehouse. */
  private Map<String, String> catalogOptions() {
    return Map.of("metastore", "hive", "uri", TestHiveMetastore.uri().toString(), "warehouse", warehouse.toString());
  }

  private IngestEngine engine() {
    return new IngestEngine(options(warehouse.toString(), Map.of("metastore", "hive", "uri", TestHiveMetastore.uri().toString()))
        .build(), IngestMetrics.NONE);
  }

  private IngestOptions.Builder options(String root, Map<String, String> catalogOptions) {
    return IngestOptions.builder(root, "sink").tableFormat(TableFormatName.PAIMON).tableNameFormat("${source.table}")
        .commitInterval(Duration.ZERO).paimon(new PaimonOptions(catalogOptions, database, 1));
  }
}
