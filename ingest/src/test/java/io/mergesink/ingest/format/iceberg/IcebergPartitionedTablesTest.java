package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.localconnect.debezium.DebeziumTable;
import io.mergesink.localconnect.debezium.SourceField;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * New Iceberg tables partitioned by {@code partition.fields}: identity, time and bucket transforms
 * in the table's spec, every data file holding only rows of its partition (Iceberg's own transforms
 * recomputed over each file's rows), and rows that move between partitions replaced, not duplicated.
 */
class IcebergPartitionedTablesTest {
  private static final String TABLE = "orders";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final DebeziumTable ORDERS = DebeziumTable.builder("pg", "public", TABLE).column("id", Schema.INT64_SCHEMA)
      .column("region", Schema.STRING_SCHEMA).column("created_at", Timestamp.SCHEMA).key("id").source(SourceField.TABLE).build();
  private static final Instant DAY_1 = Instant.parse("2026-03-01T10:15:00Z");
  private static final Instant DAY_2 = Instant.parse("2026-03-02T23:59:59Z");

  @TempDir Path dir;
  private final Map<Long, Row> model = new HashMap<>();
  private long offset;

  @Test
  void rowsLandInTheFilesOfTheirPartitionAndAMovedRowLeavesItsOldPartition() throws Exception {
    try (IngestEngine engine = engine("region, day(created_at), bucket(4, id)")) {
      engine.open(List.of(P0));
      for (long id = 0; id < 12; id++) {
        upsert(engine, id, id % 2 == 0 ? "eu" : "us", DAY_1);
      }
      engine.flush();
      upsert(engine, 1, "eu", DAY_1); // moves region
      upsert(engine, 2, "eu", DAY_2); // moves day
      upsert(engine, 3, "us", DAY_1); // stays
      delete(engine, 4);
      engine.flush();
    }

    Table table = IcebergTables.load(dir.toString(), "default", TABLE);
    assertThat(table.spec().fields()).extracting(PartitionField::name).containsExactly("region", "created_at_day", "id_bucket");
    assertThat(table.spec().fields()).extracting(field -> field.transform().toString()).containsExactly("identity", "day", "bucket[4]");
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(model.values());
    assertEveryFileHoldsOnlyRowsOfItsPartition(table);
  }

  @Test
  void aTransformOfAColumnTheTableLacksFailsTheTaskNamingTheTable() {
    try (IngestEngine engine = engine("day(shipped_at)")) {
      engine.open(List.of(P0));
      assertThatThrownBy(() -> {
        upsert(engine, 1, "eu", DAY_1);
        engine.flush();
      }).isInstanceOf(FatalIngestException.class).hasMessageContaining("partition.fields")
          .hasMessageContaining(TABLE).hasMessageContaining("day(shipped_at)");
    }
  }

  private static void assertEveryFileHoldsOnlyRowsOfItsPartition(Table table) throws IOException {
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        PartitionKey key = new PartitionKey(table.specs().get(file.specId()), table.schema());
        InternalRecordWrapper wrapper = new InternalRecordWrapper(table.schema().asStruct());
        try (CloseableIterable<Record> rows = Parquet.read(table.io().newInputFile(file.location())).project(table.schema())
            .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(table.schema(), fileSchema)).build()) {
          for (Record row : rows) {
            key.partition(wrapper.wrap(row));
            assertThat(asList(key)).as("row %s of %s", row, file.location()).isEqualTo(asList(file.partition()));
          }
        }
        files++;
      }
    }
    assertThat(files).isGreaterThan(1);
  }

  private static List<Object> asList(StructLike struct) {
    Object[] values = new Object[struct.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = struct.get(i, Object.class);
    }
    return List.of(values);
  }

  private IngestEngine engine(String partitionFields) {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).compaction(false, 0.25, 10)
        .partitionFields(io.mergesink.ingest.options.PartitionField.parse(List.of(partitionFields))).build();
    return new IngestEngine(options, IngestMetrics.NONE);
  }

  private void upsert(IngestEngine engine, long id, String region, Instant createdAt) {
    model.put(id, Row.of(id, region, createdAt.atOffset(ZoneOffset.UTC)));
    Struct row = ORDERS.newRow().put("id", id).put("region", region).put("created_at", Date.from(createdAt));
    engine.accept(record(ORDERS.key(id), ORDERS.create(row, offset)));
  }

  private void delete(IngestEngine engine, long id) {
    Row old = model.remove(id);
    Struct before = ORDERS.newRow().put("id", id).put("region", old.get(1)).put("created_at", Date.from(((OffsetDateTime) old.get(2)).toInstant()));
    engine.accept(record(ORDERS.key(id), ORDERS.delete(before, offset)));
  }

  private KafkaRecord record(Struct key, Struct value) {
    long at = offset++;
    return new KafkaRecord(P0, at, ChangeRecords.TOPIC, at, ORDERS.keySchema(), key, ORDERS.envelopeSchema(), value, RecordHeaders.NONE);
  }
}
