package io.mergesink.ingest.format.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.testing.TestHdfs;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.PaimonOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.ModelledChanges;
import io.mergesink.ingest.testing.PaimonTables;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/**
 * Paimon primary-key tables (deletion vectors) in a filesystem catalog whose warehouse is on HDFS
 * (a MiniDFSCluster), written through Paimon's Hadoop file IO with the connector's {@code hadoop.*}
 * options: a snapshot is published by HDFS's atomic rename. Read back with Paimon's own reader.
 */
class PaimonOnHdfsTest {
  private static final String TABLE = "customers";

  private final String warehouse = TestHdfs.hdfsRoot("paimon-" + UUID.randomUUID());
  private final ModelledChanges changes = new ModelledChanges(TABLE);

  @Test
  void upsertsAndDeletesLandOnHdfsAndAnEngineStartedAgainResumesFromTheSnapshotPositions() throws Exception {
    changes.acrossARestart(this::engine);

    FileStoreTable table = PaimonTables.load(warehouse, "default", TABLE);
    assertThat(table.location().toString()).isEqualTo(warehouse + "/default.db/" + TABLE);
    assertThat(table.options()).containsEntry("deletion-vectors.enabled", "true");
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.liveDeletionFiles(table)).as("replaced rows marked in deletion vectors").isNotEmpty()
        .allMatch(file -> file.startsWith(warehouse));
    assertThat(PaimonTables.positions(table)).containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", changes.nextOffset() - 1));
  }

  private IngestEngine engine() {
    IngestOptions options = IngestOptions.builder(warehouse, "sink").tableFormat(TableFormatName.PAIMON)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).storage(StorageOptions.hadoop(TestHdfs.hadoopOptions()))
        .paimon(new PaimonOptions(Map.of(), "default", 1)).build();
    return new IngestEngine(options, IngestMetrics.NONE);
  }
}
