package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.AppendTombstones;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka tombstones in append tables (docs/design.md, "Append tables"), on real Delta tables read back
 * with Delta Kernel: the tombstone Debezium sends right after a delete records nothing, wherever the
 * delete is (the same flush, an earlier one, a table the task found at a restart); a tombstone with
 * no delete of its key before it records the delete. Rows are shown as (offset, op, id).
 */
class AppendTombstonesTest {
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final String APP_ID = "sink:" + ChangeRecords.TOPIC + ":0";
  private static final String TABLE = "customers";

  @TempDir Path dir;

  @Test
  void aTombstoneAfterItsDeleteInTheSameFlushRecordsNothing() {
    try (IngestEngine engine = engine(AppendTombstones.SKIP_AFTER_DELETE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      engine.accept(ChangeRecords.delete(0, 1, TABLE, 1));
      engine.accept(ChangeRecords.tombstone(0, 2, 1));
      engine.flush();
    }
    assertThat(rows()).containsExactly(Row.of(0L, "u", 1L), Row.of(1L, "d", 1L));
    assertThat(KernelTables.txnVersion(table(), APP_ID)).contains(2L);
  }

  @Test
  void aTombstoneAfterADeleteCommittedInAnEarlierFlushRecordsNothing() {
    try (IngestEngine engine = engine(AppendTombstones.SKIP_AFTER_DELETE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      engine.accept(ChangeRecords.delete(0, 1, TABLE, 1));
      engine.flush();
      engine.accept(ChangeRecords.tombstone(0, 2, 1));
      engine.flush();

      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 3L));
    }
    assertThat(rows()).containsExactly(Row.of(0L, "u", 1L), Row.of(1L, "d", 1L));
    assertThat(KernelTables.txnVersion(table(), APP_ID)).contains(2L);
  }

  @Test
  void aTombstoneWithoutTheDeleteOfItsKeyJustBeforeItRecordsTheDelete() {
    try (IngestEngine engine = engine(AppendTombstones.SKIP_AFTER_DELETE)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      engine.accept(ChangeRecords.tombstone(0, 1, 1)); // a source that deletes by tombstone only
      engine.accept(ChangeRecords.upsert(0, 2, TABLE, 2, "bob"));
      engine.accept(ChangeRecords.delete(0, 3, TABLE, 2));
      engine.accept(ChangeRecords.upsert(0, 4, TABLE, 3, "cy"));
      engine.accept(ChangeRecords.tombstone(0, 5, 2)); // its delete is not the record before it
      engine.accept(ChangeRecords.delete(0, 6, TABLE, 3));
      engine.accept(ChangeRecords.tombstone(0, 7, 4)); // after the delete of another key
      engine.flush();
    }
    assertThat(rows()).containsExactly(Row.of(0L, "u", 1L), Row.of(1L, "d", 1L), Row.of(2L, "u", 2L), Row.of(3L, "d", 2L),
        Row.of(4L, "u", 3L), Row.of(5L, "d", 2L), Row.of(6L, "d", 3L), Row.of(7L, "d", 4L));
  }

  @Test
  void aTombstoneFirstAfterARestartRecordsNothingWhenTheTableHoldsItsDeleteJustBeforeIt() {
    try (IngestEngine first = engine(AppendTombstones.SKIP_AFTER_DELETE)) {
      first.open(List.of(P0));
      first.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      first.accept(ChangeRecords.delete(0, 1, TABLE, 1));
      first.flush();
    } // gone without closing its partitions, as after a crash

    try (IngestEngine second = engine(AppendTombstones.SKIP_AFTER_DELETE)) {
      assertThat(second.open(List.of(P0))).containsExactly(Map.entry(P0, 2L));
      second.seeksApplied();
      second.accept(ChangeRecords.tombstone(0, 2, 1));
      second.accept(ChangeRecords.tombstone(0, 3, 5));
      second.flush();
    }
    assertThat(rows()).containsExactly(Row.of(0L, "u", 1L), Row.of(1L, "d", 1L), Row.of(3L, "d", 5L));
    assertThat(KernelTables.txnVersion(table(), APP_ID)).contains(3L);
  }

  @Test
  void aTombstoneFirstAfterARestartRecordsTheDeleteWhenTheRecordBeforeItIsNoDeleteOfItsKey() {
    try (IngestEngine first = engine(AppendTombstones.SKIP_AFTER_DELETE)) {
      first.open(List.of(P0));
      first.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      first.accept(ChangeRecords.delete(0, 1, TABLE, 2));
      first.flush();
    }
    try (IngestEngine second = engine(AppendTombstones.SKIP_AFTER_DELETE)) {
      second.open(List.of(P0));
      second.seeksApplied();
      second.accept(ChangeRecords.tombstone(0, 2, 1));
      second.flush();
    }
    try (IngestEngine third = engine(AppendTombstones.SKIP_AFTER_DELETE)) {
      third.open(List.of(P0));
      third.seeksApplied();
      third.accept(ChangeRecords.tombstone(0, 3, 1)); // after the tombstone the table recorded as the delete of its key
      third.flush();
    }
    assertThat(rows()).containsExactly(Row.of(0L, "u", 1L), Row.of(1L, "d", 2L), Row.of(2L, "d", 1L));
    assertThat(KernelTables.txnVersion(table(), APP_ID)).contains(3L);
  }

  @Test
  void withRecordEveryTombstoneIsADeleteRow() {
    try (IngestEngine engine = engine(AppendTombstones.RECORD)) {
      engine.open(List.of(P0));
      engine.accept(ChangeRecords.upsert(0, 0, TABLE, 1, "ada"));
      engine.accept(ChangeRecords.delete(0, 1, TABLE, 1));
      engine.accept(ChangeRecords.tombstone(0, 2, 1));
      engine.flush();
    }
    assertThat(rows()).containsExactly(Row.of(0L, "u", 1L), Row.of(1L, "d", 1L), Row.of(2L, "d", 1L));
  }

  private IngestEngine engine(AppendTombstones tombstones) {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").writeMode(WriteMode.APPEND).appendTombstones(tombstones)
        .commitInterval(Duration.ZERO).compaction(false, 0.25, 2).build();
    return new IngestEngine(options, IngestMetrics.NONE);
  }

  /** The table of the topic ({@code table.name.format=${topic}}: tombstones carry no source table to route by). */
  private String table() {
    return dir.resolve(ChangeRecords.TOPIC).toString();
  }

  /** Every row of the table as (offset, op, id), in offset order. */
  private List<Row> rows() {
    StructType schema = KernelTables.schema(table());
    int offset = schema.indexOf("_kafka_offset");
    int op = schema.indexOf("_op");
    int id = schema.indexOf("id");
    return KernelTables.readRows(table()).stream().map(row -> Row.of(row.get(offset), row.get(op), row.get(id)))
        .sorted(Comparator.comparingLong(row -> (Long) row.get(0))).toList();
  }
}
