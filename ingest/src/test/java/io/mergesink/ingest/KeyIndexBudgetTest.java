package io.mergesink.ingest;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code index.memory.max.bytes}: after a flush, the key indexes of tables it did not commit to are
 * dropped while the indexes take more than the budget, and a table whose index was dropped finds its
 * rows again at its next commit. Tables read back with Delta Kernel and Iceberg's generic reader.
 */
class KeyIndexBudgetTest {
  private static final KafkaPartition PARTITION = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final List<String> TABLES = List.of("orders", "customers", "items");

  @TempDir Path dir;
  /** Per table, per key, the row its last change makes. */
  private final Map<String, Map<Long, Row>> model = new HashMap<>();
  private long offset;

  @ParameterizedTest
  @EnumSource(value = TableFormatName.class, names = {"DELTA", "ICEBERG"})
  void theIndexesOfIdleTablesAreDroppedOverTheBudgetAndLoadedAgainAtTheirNextCommit(TableFormatName format) throws Exception {
    try (IngestEngine engine = engine(format, 1)) {
      long everyTable = landEveryTable(engine);
      assertThat(everyTable).as("the tables the flush committed keep their indexes, over the budget too").isPositive();

      long ordersOnly = landOrdersAlone(engine);
      assertThat(ordersOnly).as("the idle tables' indexes dropped").isPositive().isLessThan(everyTable);

      upsert(engine, "customers", 3, 8, "third");
      delete(engine, "customers", 0);
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(engine.committedOffsets()).containsEntry(PARTITION, offset);
    }
    for (String table : TABLES) {
      assertThat(read(format, table)).as(table).containsExactlyInAnyOrderElementsOf(model.get(table).values());
    }
  }

  @Test
  void aTableWhoseIndexWasDroppedCommitsItsPositionsWithoutReadingItsFiles() throws Exception {
    List<RequestCounts> positionCommits = new CopyOnWriteArrayList<>();
    AtomicBoolean watching = new AtomicBoolean();
    IngestMetrics metrics = new IngestMetrics() {
      @Override
      public void committed(long latencyMs, long rowsWritten, RequestCounts requests) {
        if (watching.get() && rowsWritten == 0) {
          positionCommits.add(requests);
        }
      }
    };
    try (IngestEngine engine = engine(TableFormatName.DELTA, 1, metrics)) {
      landEveryTable(engine);
      landOrdersAlone(engine); // the indexes of customers and items dropped

      watching.set(true);
      upsert(engine, "customers", 3, 8, "third");
      assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    }
    assertThat(positionCommits).as("the commits of orders' and items' positions").hasSize(2)
        .allSatisfy(requests -> assertThat(requests.get(RequestKind.RANGED_GET)).as("data file reads").isZero());
    for (String table : TABLES) {
      assertThat(read(TableFormatName.DELTA, table)).as(table).containsExactlyInAnyOrderElementsOf(model.get(table).values());
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableFormatName.class, names = {"DELTA", "ICEBERG"})
  void withoutABudgetEveryIndexStays(TableFormatName format) throws Exception {
    try (IngestEngine engine = engine(format, 0)) {
      long everyTable = landEveryTable(engine);

      assertThat(landOrdersAlone(engine)).isGreaterThanOrEqualTo(everyTable);
    }
  }

  private IngestEngine engine(TableFormatName format, long indexBudget) {
    return engine(format, indexBudget, IngestMetrics.NONE);
  }

  private IngestEngine engine(TableFormatName format, long indexBudget, IngestMetrics metrics) {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(format).tableNameFormat("${source.table}")
        .commitInterval(Duration.ofHours(1)).indexMemoryMaxBytes(indexBudget)
        .compaction(false, 0.25, 2) // a compaction beside the flushes would make a commit read the files it wrote
        .build();
    return new IngestEngine(options, metrics);
  }

  /** Opens the partition and lands keys 0 to 9 of every table; returns the heap the indexes take then. */
  private long landEveryTable(IngestEngine engine) {
    engine.open(List.of(PARTITION));
    TABLES.forEach(table -> upsert(engine, table, 0, 10, "first"));
    assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    return engine.keyIndexHeapBytes();
  }

  /** Lands changes of orders alone (the other tables' positions move); returns the heap the indexes take then. */
  private long landOrdersAlone(IngestEngine engine) {
    upsert(engine, "orders", 0, 5, "second");
    assertThat(engine.flush()).isEqualTo(FlushOutcome.COMPLETE);
    return engine.keyIndexHeapBytes();
  }

  /** Upserts keys {@code from} to {@code to} (exclusive) of {@code table}, named {@code what}. */
  private void upsert(IngestEngine engine, String table, long from, long to, String what) {
    for (long id = from; id < to; id++) {
      String name = what + "@" + offset;
      engine.accept(ChangeRecords.upsert(0, offset++, table, id, name));
      model.computeIfAbsent(table, t -> new TreeMap<>()).put(id, row(id, name));
    }
  }

  private void delete(IngestEngine engine, String table, long id) {
    engine.accept(ChangeRecords.delete(0, offset++, table, id));
    model.get(table).remove(id);
  }

  private List<Row> read(TableFormatName format, String table) throws Exception {
    return switch (format) {
      case DELTA -> KernelTables.readRows(dir.resolve(table).toString());
      case ICEBERG -> IcebergTables.readRows(IcebergTables.load(dir.toString(), "default", table));
      default -> throw new IllegalArgumentException(format.toString());
    };
  }
}
