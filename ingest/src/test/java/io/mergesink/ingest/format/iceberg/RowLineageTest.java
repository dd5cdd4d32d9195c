package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.ModelledChanges;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row lineage of format version 3 tables: a row moved by the sink's maintenance keeps its
 * {@code _row_id}, as Iceberg's generic reader shows it, so readers of the lineage see a moved row
 * as the same row.
 */
class RowLineageTest {
  private static final String TABLE = "customers";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);

  @TempDir Path dir;
  private final ModelledChanges changes = new ModelledChanges(TABLE);

  @Test
  void aCompactionRewritesFilesAndTheRowsItMovesKeepTheirIds() throws Exception {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).compaction(false, 0.25, 10).build();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 9, "v");
      engine.flush();
      changes.upserts(engine, 10, 14, "v");
      changes.delete(engine, 3);
      engine.flush();
    }
    Table table = IcebergTables.load(dir.toString(), "default", TABLE);
    Map<Object, Long> before = IcebergTables.rowIds(table, "id");
    IcebergKeyIndex index = IcebergKeyIndex.build(table, table.currentSnapshot(), List.of("id"),
        IcebergSchemas.fromIceberg(table.schema()).select(List.of("id")), Optional.empty());

    IcebergCompaction.plan(() -> IcebergTables.load(table.location()), table, index.files(), 0.01, 2, Long.MAX_VALUE, false)
        .orElseThrow().compact();

    table.refresh();
    assertThat(IcebergTables.liveDeleteFiles(table)).as("the file with a deletion vector was rewritten").isEmpty();
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(IcebergTables.rowIds(table, "id")).isEqualTo(before);
  }
}
