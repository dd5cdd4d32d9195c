package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IcebergOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.GatedStorage;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.ModelledChanges;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage requests of Iceberg tables whose files go through the sink's storage (an object store's;
 * here the tests' {@code gated://} storage over local disk, which no Hadoop file system serves):
 * counted by kind as a Delta table's are.
 */
class IcebergStorageRequestsTest {
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);

  @TempDir Path dir;

  @Test
  void theEngineReportsTheRequestsOfItsIcebergTablesFilesByKind() {
    String root = GatedStorage.root(dir);
    Map<String, String> catalog = new HashMap<>();
    IcebergTables.jdbcCatalog(root).forEach((key, value) -> catalog.put(key.substring("iceberg.catalog.".length()), value));
    IcebergOptions iceberg = new IcebergOptions("iceberg", catalog, "default");
    IngestOptions options = IngestOptions.builder(root, "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).iceberg(iceberg)
        .compaction(false, 0.25, 10).build();
    ModelledChanges changes = new ModelledChanges("customers");

    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 9, "v");
      engine.flush();
      RequestCounts created = engine.storageRequests();
      changes.upserts(engine, 3, 5, "w");
      engine.flush();
      RequestCounts upsert = engine.storageRequests().minus(created);

      assertThat(created.get(RequestKind.PUT) + created.get(RequestKind.CONDITIONAL_PUT)).isPositive();
      assertThat(upsert.get(RequestKind.PUT) + upsert.get(RequestKind.CONDITIONAL_PUT))
          .as("a data file, a deletion vector, manifests, a manifest list and metadata: %s", upsert)
          .isGreaterThanOrEqualTo(5);
      assertThat(upsert.get(RequestKind.GET) + upsert.get(RequestKind.RANGED_GET)).isPositive();
    }
  }
}
