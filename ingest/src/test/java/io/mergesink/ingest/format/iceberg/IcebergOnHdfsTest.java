package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.testing.TestHdfs;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.ModelledChanges;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;

/**
 * Iceberg tables in a Hadoop catalog whose warehouse is on HDFS (a MiniDFSCluster), where the
 * catalog's rename commit is atomic: upserts and deletes land as deletion vectors, and an engine
 * started again resumes from the snapshot summary; read back with Iceberg's generic reader.
 */
class IcebergOnHdfsTest {
  private static final String TABLE = "customers";

  private final String warehouse = TestHdfs.hdfsRoot("iceberg-" + UUID.randomUUID());
  private final ModelledChanges changes = new ModelledChanges(TABLE);

  @Test
  void upsertsAndDeletesLandOnHdfsAndAnEngineStartedAgainResumesWhereTheTableIs() throws Exception {
    changes.acrossARestart(this::engine);

    Table table = IcebergTables.load(warehouse, "default", TABLE);
    assertThat(table.location()).startsWith("hdfs://");
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(IcebergTables.liveDeleteFiles(table)).isNotEmpty();
    assertThat(IcebergTables.positions(table)).containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", changes.nextOffset() - 1));
  }

  private IngestEngine engine() {
    IngestOptions options = IngestOptions.builder(warehouse, "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).storage(StorageOptions.hadoop(TestHdfs.hadoopOptions()))
        .compaction(false, 0.25, 10).build();
    return new IngestEngine(options, IngestMetrics.NONE);
  }
}
