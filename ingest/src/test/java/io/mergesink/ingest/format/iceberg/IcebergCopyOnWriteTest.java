package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.ModelledChanges;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copy-on-write Iceberg tables ({@code merge.strategy=copy-on-write}, Iceberg's
 * {@code write.merge.mode}): a replaced or deleted row's file is rewritten without it, so the table
 * never holds a delete file and readers that support no deletes read it; a table that had deletes
 * loses them as its files are rewritten.
 */
class IcebergCopyOnWriteTest {
  private static final String TABLE = "customers";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);

  @TempDir Path dir;
  private final ModelledChanges changes = new ModelledChanges(TABLE);

  @Test
  void upsertsAndDeletesRewriteTheFilesOfTheRowsTheyReplaceAndTheTableHoldsNoDeleteFile() throws Exception {
    try (IngestEngine engine = engine(MergeStrategy.COPY_ON_WRITE)) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 20, "v");
      engine.flush();
      Set<String> first = dataFiles(table());
      Map<Object, Long> rowIds = IcebergTables.rowIds(table(), "id");
      changes.upserts(engine, 5, 7, "w");
      changes.delete(engine, 12);
      engine.flush();
      changes.upserts(engine, 30, 31, "x"); // inserts only: the files stay
      engine.flush();

      Table table = table();
      assertThat(table.properties()).containsEntry(TableProperties.MERGE_MODE, "copy-on-write")
          .containsEntry(TableProperties.UPDATE_MODE, "copy-on-write").containsEntry(TableProperties.DELETE_MODE, "copy-on-write");
      assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
      assertThat(IcebergTables.liveDeleteFiles(table)).isEmpty();
      assertThat(dataFiles(table)).as("the first flush's file was rewritten").doesNotContainAnyElementsOf(first).hasSize(3);
      Map<Object, Long> kept = IcebergTables.rowIds(table, "id");
      rowIds.keySet().removeIf(id -> (Long) id >= 5 && (Long) id <= 7 || (Long) id == 12);
      assertThat(kept).as("rows the rewrite moved keep their row ids").containsAllEntriesOf(rowIds);
      assertThat(IcebergTables.positions(table)).containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", changes.nextOffset() - 1));
    }
  }

  @Test
  void aTableWhoseMergeModeTurnsToCopyOnWriteLosesTheDeletesOfTheFilesItRewrites() throws Exception {
    try (IngestEngine engine = engine(MergeStrategy.DELETION_VECTORS)) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 9, "v");
      engine.flush();
      changes.upserts(engine, 2, 3, "w");
      engine.flush();
    }
    Table table = table();
    assertThat(IcebergTables.liveDeleteFiles(table)).hasSize(1);
    table.updateProperties().set(TableProperties.MERGE_MODE, "copy-on-write").commit();

    try (IngestEngine engine = engine(MergeStrategy.DELETION_VECTORS)) { // the table's mode wins over the option
      assertThat(engine.open(List.of(P0))).containsEntry(P0, changes.nextOffset());
      engine.seeksApplied();
      changes.upserts(engine, 4, 4, "x");
      engine.flush();
    }
    table.refresh();
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(IcebergTables.liveDeleteFiles(table)).isEmpty();
  }

  private static Set<String> dataFiles(Table table) throws IOException {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      return StreamSupport.stream(tasks.spliterator(), false).map(task -> task.file().location()).collect(Collectors.toSet());
    }
  }

  private Table table() {
    return IcebergTables.load(dir.toString(), "default", TABLE);
  }

  private IngestEngine engine(MergeStrategy strategy) {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).mergeStrategy(strategy).compaction(false, 0.25, 10)
        .build();
    return new IngestEngine(options, IngestMetrics.NONE);
  }
}
