package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IcebergOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.ModelledChanges;
import io.mergesink.ingest.testing.TestHiveMetastore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.api.GetTableRequest;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hive.HiveCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg tables in a Hive Metastore catalog ({@code iceberg.catalog.type=hive}) on the tests' real
 * metastore: the sink creates the database and the table, upserts and deletes land as deletion
 * vectors, and an engine started again resumes from the positions in the snapshot summary; read back
 * through Iceberg's own HiveCatalog with its generic reader. The tables commit without a metastore
 * lock, by the metastore's own compare-and-set of their metadata location (Hive 4): the metastore's
 * schema here is the one it creates itself, without the transaction tables its locks live in.
 */
class IcebergOnHiveMetastoreTest {
  private static final String TABLE = "customers";

  private final String database = TestHiveMetastore.newDatabaseName();
  private final ModelledChanges changes = new ModelledChanges(TABLE);

  @TempDir
  Path warehouse;

  @Test
  void upsertsLandInATableRegisteredInTheMetastoreAndAnEngineStartedAgainResumesFromItsPositions() throws Exception {
    changes.acrossARestart(this::engine);

    try (HiveCatalog catalog = new HiveCatalog()) {
      catalog.setConf(new Configuration());
      catalog.initialize("reader", Map.of("uri", TestHiveMetastore.uri().toString(), "warehouse", warehouse.toString()));
      Table table = catalog.loadTable(TableIdentifier.of(database, TABLE));
      assertThat(table.location()).endsWith(warehouse + "/" + database + ".db/" + TABLE);
      assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
      assertThat(IcebergTables.liveDeleteFiles(table)).isNotEmpty();
      assertThat(IcebergTables.positions(table))
          .containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", changes.nextOffset() - 1));
    }
    try (TestHiveMetastore.Connection metastore = TestHiveMetastore.connect()) {
      assertThat(metastore.client().get_table_req(new GetTableRequest(database, TABLE)).getTable().getParameters())
          .containsEntry(BaseMetastoreTableOperations.TABLE_TYPE_PROP, "ICEBERG");
    }
  }

  @Test
  void onAnObjectStoreTheCatalogIsRefusedWithoutAFileIoOfItsOwn() {
    IngestOptions options = IngestOptions.builder("s3://bucket/warehouse", "sink").tableFormat(TableFormatName.ICEBERG)
        .iceberg(new IcebergOptions("iceberg", Map.of("type", "hive", "uri", "thrift://127.0.0.1:9083"), database))
        .build();

    assertThatThrownBy(() -> IcebergCatalogs.open(options, new StorageFileIO(options.storage()))).isInstanceOf(FatalIngestException.class)
        .hasMessageContaining("iceberg.catalog.type=hive").hasMessageContaining("iceberg.catalog.io-impl");
  }

  private IngestEngine engine() {
    IcebergOptions iceberg = new IcebergOptions("iceberg",
        Map.of("type", "hive", "uri", TestHiveMetastore.uri().toString()), database);
    IngestOptions options = IngestOptions.builder(warehouse.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).iceberg(iceberg)
        .tableProperties(Map.of(TableProperties.HIVE_LOCK_ENABLED, "false"))
        .compaction(false, 0.25, 10).build();
    return new IngestEngine(options, IngestMetrics.NONE);
  }
}
