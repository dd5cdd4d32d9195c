package io.mergesink.ingest.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.types.SchemaJson;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.CatalogOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.TestHiveMetastore;
import io.mergesink.localconnect.debezium.DebeziumTable;
import io.mergesink.localconnect.debezium.SourceField;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.GetTableRequest;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine with {@code catalog.type=hive} on a real Hive Metastore: the table its first commit
 * creates appears there, external, provider delta, at its location with its schema, and a column
 * added mid-stream follows.
 */
class CatalogRegistrationTest {
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);

  @TempDir Path dir;

  @Test
  void aTableTheEngineCreatesAppearsInTheMetastoreAndFollowsAnAddedColumn() throws Exception {
    String database = "engine_tables";
    try (TestHiveMetastore.Connection connection = TestHiveMetastore.connect()) {
      connection.client().create_database(new Database(database, null, null, new HashMap<>()));
    }
    DebeziumTable orders = DebeziumTable.builder("pg", "public", "orders").topic("pg").database("shop")
        .column("id", Schema.INT64_SCHEMA).column("name", Schema.OPTIONAL_STRING_SCHEMA).key("id")
        .source(SourceField.DB, SourceField.SCHEMA, SourceField.TABLE).build();
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableNameFormat("${source.schema}/${source.table}")
        .commitInterval(Duration.ZERO).schemaEvolution(SchemaEvolution.ADD_COLUMNS)
        .catalog(CatalogOptions.hive(TestHiveMetastore.uri()).withDatabase(database)).build();
    String location = "file:" + dir.resolve("public/orders");

    try (IngestEngine engine = new IngestEngine(options, new IngestMetrics() {})) {
      engine.open(List.of(P0));
      engine.accept(record(orders, 0, orders.newRow().put("id", 1L).put("name", "first")));
      engine.flush();
      Table created = entry(database);
      assertThat(created.getSd().getLocation()).isEqualTo(location);
      assertThat(created.getParameters()).containsEntry("spark.sql.sources.provider", "delta");
      assertThat(created.getSd().getCols()).extracting(FieldSchema::getName).containsExactly("id", "name");

      DebeziumTable wider = orders.withColumn("note", Schema.OPTIONAL_STRING_SCHEMA);
      engine.accept(record(wider, 1, wider.newRow().put("id", 2L).put("name", "second").put("note", "gift")));
      engine.flush();
    }

    Table updated = entry(database);
    assertThat(updated.getSd().getCols()).extracting(FieldSchema::getName).containsExactly("id", "name", "note");
    assertThat(SchemaJson.fromJson(updated.getParameters().get("spark.sql.sources.schema.part.0")).fieldNames())
        .containsExactly("id", "name", "note");
    assertThat(updated.getCreateTime()).as("updated, not registered again").isEqualTo(entry(database).getCreateTime());
  }

  private static KafkaRecord record(DebeziumTable table, long offset, Struct after) {
    Struct key = table.key(after.get("id"));
    return new KafkaRecord(P0, offset, ChangeRecords.TOPIC, offset, table.keySchema(), key, table.envelopeSchema(),
        table.create(after, offset), RecordHeaders.NONE);
  }

  private static Table entry(String database) throws Exception {
    try (TestHiveMetastore.Connection connection = TestHiveMetastore.connect()) {
      return connection.client().get_table_req(new GetTableRequest(database, "public_orders")).getTable();
    }
  }
}
