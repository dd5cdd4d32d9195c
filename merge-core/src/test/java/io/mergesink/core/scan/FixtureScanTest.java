package io.mergesink.core.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.SparkStrings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our reader against every Spark fixture (partitions, column mapping, type widening, V2
 * checkpoint, clustering, constraints, row tracking, change data feed): the snapshot's facts from
 * each PROVENANCE.md, and the live rows of a full scan, rendered as Spark renders them, equal to
 * {@code EXPECTED_ROWS.csv}; a scan of the columns in reverse order gives the same rows.
 */
class FixtureScanTest {
  /** Per fixture (PROVENANCE.md): latest version, live files, files with a DV, rows deleted by DVs, partition columns. */
  static Stream<Arguments> fixtures() {
    return Stream.of(
        Arguments.of("cdf-table", 4, 6, 4, 43, List.of()),
        Arguments.of("clustered-table", 3, 1, 1, 30, List.of()),
        Arguments.of("column-mapping-id-table", 3, 2, 2, 23, List.of()),
        Arguments.of("column-mapping-name-table", 6, 3, 3, 58, List.of()),
        Arguments.of("constraints-table", 2, 1, 0, 0, List.of()),
        Arguments.of("cow-table", 3, 2, 0, 0, List.of()),
        Arguments.of("dv-table", 6, 7, 5, 218, List.of()),
        Arguments.of("partitioned-table", 6, 42, 19, 159, List.of("region", "day")),
        Arguments.of("row-tracking-table", 3, 4, 4, 45, List.of()),
        Arguments.of("type-widening-table", 6, 3, 2, 19, List.of()),
        Arguments.of("types-table", 2, 2, 1, 1, List.of()),
        Arguments.of("v2-checkpoint-table", 4, 5, 4, 50, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void snapshotAndScanMatchProvenance(String fixture, long version, int files, int filesWithDv, long deletedRows,
      List<String> partitionColumns) throws IOException {
    String root = FixtureTables.path(fixture).toString();
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root);

    Snapshot snapshot = table.snapshot();

    assertThat(snapshot.version()).isEqualTo(version);
    assertThat(snapshot.files()).hasSize(files);
    assertThat(snapshot.files().values()).filteredOn(f -> f.deletionVector() != null).hasSize(filesWithDv);
    assertThat(snapshot.files().values().stream().mapToLong(AddFile::deletedRecords).sum()).isEqualTo(deletedRows);
    assertThat(snapshot.metadata().partitionColumns()).isEqualTo(partitionColumns);
    assertThat(snapshot.schema().fieldNames()).isEqualTo(FixtureTables.expectedColumns(fixture));
    assertThat(snapshot.schema().toString()).as("column names and types as Kernel sees them")
        .isEqualTo(KernelTables.schema(root).toString());
    assertThat(FixtureTables.sorted(SparkStrings.render(snapshot.schema(), scan(table, snapshot, List.of()))))
        .isEqualTo(FixtureTables.sorted(FixtureTables.expectedRows(fixture)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void projectionInAnotherOrderReadsTheSameValues(String fixture) throws IOException {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), FixtureTables.path(fixture).toString());
    Snapshot snapshot = table.snapshot();
    List<String> reversed = new ArrayList<>(snapshot.schema().fieldNames());
    java.util.Collections.reverse(reversed);

    List<Row> all = scan(table, snapshot, List.of());
    List<Row> projected = scan(table, snapshot, reversed);

    int width = reversed.size();
    List<Row> reordered = new ArrayList<>();
    for (Row row : projected) {
      Object[] values = new Object[width];
      for (int i = 0; i < width; i++) {
        values[width - 1 - i] = row.get(i);
      }
      reordered.add(Row.of(values));
    }
    assertThat(reordered).containsExactlyInAnyOrderElementsOf(all);
  }

  private static List<Row> scan(DeltaTable table, Snapshot snapshot, List<String> columns) throws IOException {
    List<Row> rows = new ArrayList<>();
    try (TableScan scan = table.scan(snapshot, columns)) {
      scan.forEachRemaining(rows::add);
    }
    return rows;
  }
}
