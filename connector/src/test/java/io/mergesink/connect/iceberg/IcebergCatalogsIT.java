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
import io.mergesink.connect.testing.S3SinkOptions;
import io.mergesink.core.testing.TestS3;
import io.mergesink.locals3.LocalS3;
import io.mergesink.localpg.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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
        "iceberg.catalog.warehouse", warehouse.toUri().toString(), "iceberg.catalog", "local_lake");
    landTwiceAndRead(catalog, catalog("local_lake", "jdbc", Map.of("uri", postgres.jdbcUrl(), "jdbc.user", LocalPostgres.USER,
        "jdbc.password", LocalPostgres.PASSWORD, "warehouse", warehouse.toUri().toString())));
  }

  /**
   * The warehouse on S3, written through the connector's own storage with its own S3 options, read
   * back with Iceberg's S3 file IO.
   */
  @Test
  void aJdbcCatalogWithItsWarehouseOnS3() throws Exception {
    TestS3.s3().createBucket("iceberg-lake");
    Map<String, String> options = new HashMap<>(S3SinkOptions.testServer());
    options.putAll(Map.of("iceberg.catalog.type", "jdbc", "iceberg.catalog.uri", postgres.jdbcUrl(),
        "iceberg.catalog.jdbc.user", LocalPostgres.USER, "iceberg.catalog.jdbc.password", LocalPostgres.PASSWORD,
        "iceberg.catalog.warehouse", "s3://iceberg-lake/warehouse", "iceberg.catalog", "s3_lake"));
    Map<String, String> reader = new HashMap<>(Map.of("uri", postgres.jdbcUrl(), "jdbc.user", LocalPostgres.USER,
        "jdbc.password", LocalPostgres.PASSWORD, "warehouse", "s3://iceberg-lake/warehouse"));
    reader.putAll(s3FileIo());
    landTwiceAndRead(options, catalog("s3_lake", "jdbc", reader));
    try (Stream<Path> objects = Files.walk(TestS3.s3().dataDir().resolve("iceberg-lake"))) {
      assertThat(objects.map(Path::toString)).as("objects of the bucket").anyMatch(object -> object.contains("customers/data/"));
    }
  }

  /**
   * A REST catalog whose server keeps the warehouse on S3 (written there with Iceberg's S3 file IO):
   * the sink writes the tables' files through its own storage, whatever file IO the server names.
   */
  @Test
  void aRestCatalogWithItsWarehouseOnS3() throws Exception {
    TestS3.s3().createBucket("iceberg-rest-lake");
    try (RestCatalogServer server = RestCatalogServer.start("rest-s3-backend", postgres.jdbcUrl(), LocalPostgres.USER,
        LocalPostgres.PASSWORD, "s3://iceberg-rest-lake/warehouse", s3FileIo())) {
      Map<String, String> options = new HashMap<>(S3SinkOptions.testServer());
      options.putAll(Map.of("iceberg.catalog.type", "rest", "iceberg.catalog.uri", server.uri(),
          "iceberg.catalog.warehouse", "s3://iceberg-rest-lake/warehouse"));
      Map<String, String> reader = new HashMap<>(s3FileIo());
      reader.put("uri", server.uri());
      landTwiceAndRead(options, catalog("lake", "rest", reader));
    }
    try (Stream<Path> objects = Files.walk(TestS3.s3().dataDir().resolve("iceberg-rest-lake"))) {
      assertThat(objects.map(Path::toString)).as("objects of the bucket").anyMatch(object -> object.contains("customers/data/"));
    }
  }

  /** Iceberg's S3 file IO on the test server: how another engine reads the tables. */
  private static Map<String, String> s3FileIo() {
    return Map.of("io-impl", "org.apache.iceberg.aws.s3.S3FileIO", "s3.endpoint", TestS3.s3().endpoint(),
        "s3.path-style-access", "true", "client.region", LocalS3.REGION, "s3.access-key-id", LocalS3.ACCESS_KEY,
        "s3.secret-access-key", LocalS3.SECRET_KEY, "http-client.type", "apache");
  }

  @Test
  void aRestCatalogHoldsTheTablesAndTheirPositions() throws Exception {
    try (RestCatalogServer server = RestCatalogServer.start(postgres.jdbcUrl(), LocalPostgres.USER, LocalPostgres.PASSWORD,
        warehouse.toUri().toString())) {
      landTwiceAndRead(Map.of("iceberg.catalog.type", "rest", "iceberg.catalog.uri", server.uri()),
          catalog("lake", "rest", Map.of("uri", server.uri())));
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
    config.putIfAbsent("iceberg.catalog", "lake");
    config.put("table.root", "/unused-by-these-catalogs");
    config.put("table.format", "iceberg");
    config.put("table.name.format", "shop/${source.table}");
    config.put("txn.app.id", "sink");
    config.put("commit.interval.ms", "0");
    return config;
  }

  /** Iceberg's own catalog {@code name}, as another engine reading the tables opens it. */
  private static Catalog catalog(String name, String type, Map<String, String> properties) {
    Map<String, String> all = new HashMap<>(properties);
    all.put(CatalogUtil.ICEBERG_CATALOG_TYPE, type);
    return CatalogUtil.buildIcebergCatalog(name, all, new org.apache.hadoop.conf.Configuration());
  }

  private io.mergesink.ingest.record.KafkaRecord upsert(long offset, long id, String name) {
    model.put(id, row(id, name));
    return ChangeRecords.upsert(0, offset, "customers", id, name);
  }
}
