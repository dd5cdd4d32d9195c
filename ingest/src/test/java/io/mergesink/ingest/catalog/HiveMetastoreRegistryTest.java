package io.mergesink.ingest.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.SchemaJson;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.config.CatalogOptions;
import io.mergesink.ingest.testing.TestHiveMetastore;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.GetTableRequest;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Registration in a real Hive Metastore ({@link TestHiveMetastore}), read back with the metastore's
 * own Thrift client: the entry Spark's Delta catalog would write, created once, following schema
 * and partitioning changes, another table's entry left alone, a metastore that is down or refuses
 * never throwing and tried again later.
 */
class HiveMetastoreRegistryTest {
  private static final StructType SCHEMA = new StructType(List.of(
      new StructField("id", PrimitiveType.LONG, false), new StructField("name", PrimitiveType.STRING, true)));

  /** Where the tables are: the metastore checks a location through Hadoop's file systems, so it is a local one. */
  @TempDir Path lake;

  @Test
  void aTableIsRegisteredAsSparksDeltaCatalogRegistersItAndOnlyOnce() throws TException {
    String database = database("spark_shape");
    String path = lake.resolve("public/orders").toString();
    CatalogTable table = CatalogTable.at("public/orders", path, SCHEMA, List.of());
    try (TableRegistry registry = new HiveMetastoreRegistry(hive(database))) {
      registry.committed(table);
      Table registered = entry(database, "public_orders");
      registry.committed(table);
      assertThat(entry(database, "public_orders").getCreateTime()).as("registered once").isEqualTo(registered.getCreateTime());

      assertThat(registered.getTableType()).isEqualTo("EXTERNAL_TABLE");
      assertThat(registered.getSd().getLocation()).isEqualTo("file:" + path);
      assertThat(registered.getSd().getSerdeInfo().getParameters()).containsEntry("path", "file:" + path);
      assertThat(registered.getParameters()).containsEntry("spark.sql.sources.provider", "delta")
          .containsEntry("EXTERNAL", "TRUE")
          .containsEntry("spark.sql.sources.schema.numParts", "1")
          .doesNotContainKey("spark.sql.sources.schema.numPartCols");
      assertThat(SchemaJson.fromJson(registered.getParameters().get("spark.sql.sources.schema.part.0"))).isEqualTo(SCHEMA);
      assertThat(registered.getSd().getCols()).containsExactly(new FieldSchema("id", "bigint", null),
          new FieldSchema("name", "string", null));
    }
  }

  @Test
  void anEntryFollowsTheTablesSchemaAndPartitioning() throws TException {
    String database = database("follows");
    StructType wider = SCHEMA.add(new StructField("placed_on", PrimitiveType.DATE, true));
    try (TableRegistry registry = new HiveMetastoreRegistry(hive(database))) {
      registry.committed(CatalogTable.at("orders", orders(), SCHEMA, List.of()));
      registry.committed(CatalogTable.at("orders", orders(), wider, List.of("placed_on")));
    }

    Table updated = entry(database, "orders");
    assertThat(updated.getSd().getCols()).extracting(FieldSchema::getName).containsExactly("id", "name", "placed_on");
    assertThat(updated.getSd().getCols().get(2).getType()).isEqualTo("date");
    assertThat(SchemaJson.fromJson(updated.getParameters().get("spark.sql.sources.schema.part.0"))).isEqualTo(wider);
    assertThat(updated.getParameters()).containsEntry("spark.sql.sources.schema.numPartCols", "1")
        .containsEntry("spark.sql.sources.schema.partCol.0", "placed_on");
  }

  @Test
  void anEntryOfAnotherTableOfTheSameNameIsLeftAlone() throws TException {
    String database = database("other_table");
    try (TableRegistry registry = new HiveMetastoreRegistry(hive(database))) {
      registry.committed(CatalogTable.at("orders", orders(), SCHEMA, List.of()));
    }
    try (TableRegistry registry = new HiveMetastoreRegistry(hive(database))) {
      registry.committed(CatalogTable.at("orders", lake.resolve("elsewhere/orders").toString(),
          SCHEMA.add(new StructField("note", PrimitiveType.STRING, true)), List.of()));
    }

    Table kept = entry(database, "orders");
    assertThat(kept.getSd().getLocation()).isEqualTo("file:" + orders());
    assertThat(kept.getSd().getCols()).hasSize(2);
  }

  @Test
  void aMetastoreThatIsDownNeverThrowsAndARefusedRegistrationIsTriedAgain() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    CatalogTable table = CatalogTable.at("orders", orders(), SCHEMA, List.of());
    try (TableRegistry down = new HiveMetastoreRegistry(CatalogOptions.hive(URI.create("thrift://127.0.0.1:" + closedPort)))) {
      assertThatCode(() -> down.committed(table)).doesNotThrowAnyException();
    }

    String database = "not_yet_created";
    try (TableRegistry registry = new HiveMetastoreRegistry(hive(database), Duration.ZERO)) {
      registry.committed(table); // the database is missing: refused, logged
      try (TestHiveMetastore.Connection connection = TestHiveMetastore.connect()) {
        connection.client().create_database(new Database(database, null, null, new HashMap<>()));
      }
      registry.committed(table);
    }
    assertThat(entry(database, "orders").getSd().getLocation()).isEqualTo("file:" + orders());
  }

  private String orders() {
    return lake.resolve("orders").toString();
  }

  private static CatalogOptions hive(String database) {
    return CatalogOptions.hive(TestHiveMetastore.uri()).withDatabase(database);
  }

  /** A new database {@code name} in the shared metastore, so tests keep apart. */
  private static String database(String name) throws TException {
    try (TestHiveMetastore.Connection connection = TestHiveMetastore.connect()) {
      connection.client().create_database(new Database(name, null, null, new HashMap<>()));
    }
    return name;
  }

  private static Table entry(String database, String name) throws TException {
    try (TestHiveMetastore.Connection connection = TestHiveMetastore.connect()) {
      ThriftHiveMetastore.Client client = connection.client();
      return client.get_table_req(new GetTableRequest(database, name)).getTable();
    }
  }
}
