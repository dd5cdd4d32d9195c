package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.SequencedRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A topic grows while the task of an old partition lags: keys now hashed to the new partition have
 * older changes still unflushed in their old one, and the new partition's task commits first.
 * With the default options (Kafka order, {@code lookup.scope=partition}) the table must still end
 * with each key's newest change by source position, read back with Delta Kernel
 * (docs/design.md, "Topics that grow").
 */
class GrownTopicOrderTest {
  private static final String TABLE = "items";

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS, HARD", "COPY_ON_WRITE, HARD", "DELETION_VECTORS, SOFT", "COPY_ON_WRITE, SOFT"})
  void aKeysOlderChangesInItsOldPartitionDoNotOverwriteItsNewerOnesInTheNewPartition(MergeStrategy strategy, DeleteMode deletes) {
    try (IngestEngine old = engine(strategy, deletes, 0)) {
      long offset = 0;
      for (long id = 1; id <= 4; id++) {
        old.accept(upsert(0, offset++, id, "before the growth", id));
      }
      assertThat(old.flush()).isEqualTo(FlushOutcome.COMPLETE);
      // changes made before the growth, not yet flushed by the old partition's task
      old.accept(SequencedRecords.delete(0, offset++, 1, 10, 10));
      old.accept(upsert(0, offset++, 2, "older update", 11));
      old.accept(upsert(0, offset++, 3, "older update", 12));
      old.accept(upsert(0, offset++, 4, "older update", 13));
      old.accept(upsert(0, offset++, 5, "created before the growth", 14));

      // the topic grew: keys 1, 2, 4 and 5 now go to partition 1, whose task commits first
      try (IngestEngine grown = engine(strategy, deletes, 1)) {
        grown.accept(upsert(1, 0, 1, "created again after the growth", 20));
        grown.accept(upsert(1, 1, 2, "newer update", 21));
        grown.accept(SequencedRecords.delete(1, 2, 4, 22, 22));
        grown.accept(SequencedRecords.delete(1, 3, 5, 23, 23));
        assertThat(grown.flush()).isEqualTo(FlushOutcome.COMPLETE);
      }
      assertThat(old.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }

    assertThat(table()).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        1L, "created again after the growth",
        2L, "newer update",
        3L, "older update")));
  }

  /**
   * The task of the old partition restarts before it lands its older changes of keys the new
   * partition's task deleted: it learns those deletes from the table's log, not from its memory.
   */
  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aLaggingTaskThatRestartsDoesNotBringBackKeysDeletedInTheNewPartition(MergeStrategy strategy) {
    List<KafkaRecord> old = List.of(upsert(0, 0, 1, "before the growth", 1), upsert(0, 1, 2, "before the growth", 2));
    try (IngestEngine first = engine(strategy, DeleteMode.HARD, 0)) {
      old.forEach(first::accept);
      assertThat(first.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }
    List<KafkaRecord> lagging = List.of(upsert(0, 2, 1, "older update", 10), upsert(0, 3, 3, "created before the growth", 11));
    try (IngestEngine grown = engine(strategy, DeleteMode.HARD, 1)) {
      grown.accept(SequencedRecords.delete(1, 0, 1, 20, 20));
      grown.accept(SequencedRecords.delete(1, 1, 3, 21, 21));
      assertThat(grown.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }
    try (IngestEngine restarted = engine(strategy, DeleteMode.HARD, 0)) {
      lagging.forEach(restarted::accept);
      assertThat(restarted.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }

    assertThat(table()).containsExactlyEntriesOf(Map.of(2L, "before the growth"));
  }

  /**
   * A history table: the new partition's task deletes a key whose create is still unread in the
   * old partition; the create, landing later, becomes a version that the delete ended, not a
   * current row.
   */
  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS", "COPY_ON_WRITE"})
  void aHistoryKeysVersionThatLandsAfterItsDeleteEndsAtTheDelete(MergeStrategy strategy) {
    try (IngestEngine old = engine(strategy, DeleteMode.HARD, 0, WriteMode.HISTORY)) {
      old.accept(upsert(0, 0, 1, "before the growth", 1));
      assertThat(old.flush()).isEqualTo(FlushOutcome.COMPLETE);
      old.accept(upsert(0, 1, 2, "created before the growth", 10));
      try (IngestEngine grown = engine(strategy, DeleteMode.HARD, 1, WriteMode.HISTORY)) {
        grown.accept(SequencedRecords.delete(1, 0, 2, 20, 20));
        assertThat(grown.flush()).isEqualTo(FlushOutcome.COMPLETE);
      }
      assertThat(old.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }

    String path = dir.resolve(TABLE).toString();
    StructType schema = KernelTables.schema(path);
    Map<Long, String> versions = new TreeMap<>();
    for (Row row : KernelTables.readRows(path)) {
      versions.put((Long) row.get(schema.indexOf("id")), row.get(schema.indexOf("name")) + " current=" + row.get(schema.indexOf("__current"))
          + " ended by " + row.get(schema.indexOf("__valid_to_source_lsn")));
    }
    assertThat(versions).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        1L, "before the growth current=true ended by null",
        2L, "created before the growth current=false ended by 20")));
  }

  private static KafkaRecord upsert(int partition, long offset, long id, String name, long lsn) {
    return SequencedRecords.upsert(partition, offset, "u", id, name, lsn, lsn, lsn);
  }

  /** A task owning {@code partition} with the default order ({@code upsert.order.by=none}) and lookup scope. */
  private IngestEngine engine(MergeStrategy strategy, DeleteMode deletes, int partition) {
    return engine(strategy, deletes, partition, WriteMode.UPSERT);
  }

  private IngestEngine engine(MergeStrategy strategy, DeleteMode deletes, int partition, WriteMode mode) {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableNameFormat("${source.table}")
        .writeMode(mode).mergeStrategy(strategy).commitInterval(Duration.ZERO)
        .changeSemantics(new ChangeSemantics(UpsertOrder.NONE, deletes, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX))
        .build();
    IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE);
    engine.open(List.of(new KafkaPartition(SequencedRecords.TOPIC, partition)));
    engine.seeksApplied();
    return engine;
  }

  /** id → name of each live row (soft-deleted rows left out); one row per key. */
  private Map<Long, String> table() {
    String path = dir.resolve(TABLE).toString();
    StructType schema = KernelTables.schema(path);
    int deleted = schema.indexOf("__deleted");
    Map<Long, String> rows = new TreeMap<>();
    for (Row row : KernelTables.readRows(path)) {
      long id = (Long) row.get(schema.indexOf("id"));
      assertThat(rows.containsKey(id)).as("key %d in one row", id).isFalse();
      rows.put(id, deleted >= 0 && Boolean.TRUE.equals(row.get(deleted)) ? null : (String) row.get(schema.indexOf("name")));
    }
    rows.values().removeIf(name -> name == null);
    return rows;
  }
}
