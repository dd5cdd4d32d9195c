package io.mergesink.connect.iceberg;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestConfig;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.localpg.LocalPostgres;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg tables registered in the catalogs users run, configured with the {@code iceberg.catalog.*}
 * options: a JDBC catalog on a throwaway PostgreSQL, and a REST catalog over HTTP. Each table is
 * created from the first records, found again by a second engine (which resumes from its
 * positions), and read back through the catalog with Iceberg's reader.
 */
class IcebergCatalogsIT {
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static LocalPostgres postgres;

  @TempDir Path warehouse;
  private final Map<Long, Row> model = new HashMap<>();

  @BeforeAll
  static void startPostgres() {
    assertThat(LocalPostgres.available()).as("PostgreSQL server binaries under /usr/lib/postgresql/*/bin").isTrue();
    postgres = LocalPostgres.start("catalog");
  }

  @AfterAll
  static void stopPostgres() {
    postgres.close();
  }

  @Test
  void aJdbcCatalogHoldsTheTablesAndTheirPositions() throws Exception {
    Map<String, String> catalog = Map.of("iceberg.catalog.type", "jdbc", "iceberg.catalog.uri", postgres.jdbcUrl(),
        "iceberg.catalog.jdbc.user", LocalPostgres.USER, "iceberg.catalog.jdbc.password", LocalPostgres.PASSWORD,
        "iceberg.catalog.warehouse", warehouse.toUri().toString());
    landTwiceAndRead(catalog, catalog("jdbc", Map.of("uri", postgres.jdbcUrl(), "jdbc.user", LocalPostgres.USER,
        "jdbc.password", LocalPostgres.PASSWORD, "warehouse", warehouse.toUri().toString())));
  }

  @Test
  void aRestCatalogHoldsTheTablesAndTheirPositions() throws Exception {
    try (RestCatalogServer server = RestCatalogServer.start(postgres.jdbcUrl(), LocalPostgres.USER, LocalPostgres.PASSWORD,
        warehouse.toUri().toString())) {
      landTwiceAndRead(Map.of("iceberg.catalog.type", "rest", "iceberg.catalog.uri", server.uri()),
          catalog("rest", Map.of("uri", server.uri())));
    }
  }

  @Test
  void theHadoopCatalogIsRefusedOnS3ByName() {
    Map<String, String> config = config(Map.of("iceberg.catalog.type", "hadoop", "iceberg.catalog.warehouse", "s3://bucket/lake"));
    assertThatThrownBy(() -> new IngestEngine(new IngestConfig(config).ingestOptions(), IngestMetrics.NONE).close())
        .isInstanceOf(FatalIngestException.class).hasMessageContaining("not atomic on S3").hasMessageContaining("rest or jdbc");
  }

  private void landTwiceAndRead(Map<String, String> catalogOptions, Catalog reader) throws Exception {
    Map<String, String> config = config(catalogOptions);
    try (IngestEngine first = new IngestEngine(new IngestConfig(config).ingestOptions(), IngestMetrics.NONE)) {
      first.open(List.of(P0));
      for (long offset = 0; offset < 6; offset++) {
        first.accept(upsert(offset, offset % 3, "v" + offset));
      }
      first.flush();
    }
    try (IngestEngine second = new IngestEngine(new IngestConfig(config).ingestOptions(), IngestMetrics.NONE)) {
      assertThat(second.open(List.of(P0))).containsExactly(Map.entry(P0, 6L));
      second.seeksApplied();
      second.accept(upsert(6, 1, "w6"));
      second.accept(ChangeRecords.delete(0, 7, "customers", 2));
      model.remove(2L);
      second.flush();
    }
    Table table = reader.loadTable(TableIdentifier.of("shop", "customers"));
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(model.values());
    assertThat(IcebergTables.positions(table)).containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", 7L));
    assertThat(table.schema().identifierFieldNames()).containsExactly("id");
  }

  private static Map<String, String> config(Map<String, String> catalog) {
    Map<String, String> config = new HashMap<>(catalog);
    config.put("table.root", "/unused-by-these-catalogs");
    config.put("table.format", "iceberg");
    config.put("table.name.format", "shop/${source.table}");
    config.put("txn.app.id", "sink");
    config.put("iceberg.catalog", "lake");
    config.put("commit.interval.ms", "0");
    return config;
  }

  private static Catalog catalog(String type, Map<String, String> properties) {
    Map<String, String> all = new HashMap<>(properties);
    all.put(CatalogUtil.ICEBERG_CATALOG_TYPE, type);
    return CatalogUtil.buildIcebergCatalog("lake", all, new org.apache.hadoop.conf.Configuration());
  }

  private io.mergesink.ingest.record.KafkaRecord upsert(long offset, long id, String name) {
    model.put(id, row(id, name));
    return ChangeRecords.upsert(0, offset, "customers", id, name);
  }
}
