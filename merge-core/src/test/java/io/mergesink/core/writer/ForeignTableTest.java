package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tables written by Spark accept our commits: their deletion vectors are unioned with ours,
 * their txns advance, and Delta Kernel reads the result as the expected rows.
 */
class ForeignTableTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({"dv-table, DELETION_VECTORS", "dv-table, COPY_ON_WRITE", "cow-table, COPY_ON_WRITE"})
  void sparkTableTakesOurUpsertsAndDeletes(String fixture, MergeStrategy strategy) throws Exception {
    String root = FixtureTables.copy(fixture, dir.resolve(fixture)).toString();
    List<Row> before = KernelTables.readRows(root);
    Map<Object, Row> model = new HashMap<>();
    before.forEach(row -> model.put(row.get(0), row));

    // id 5 exists in both tables, 7 was updated by Spark, 11 exists, 9999 is new
    Row upsert = withName(model.get(5L), "ours-5");
    Row insert = withName(model.get(11L), "ours-9999");
    Object[] inserted = insert.toArray();
    inserted[0] = 9999L;
    ChangeSet changes = ChangeSet.builder()
        .upsert(upsert)
        .upsert(Row.of(inserted))
        .delete(Row.of(11L))
        .delete(Row.of(7L))
        .txn("fixture-app:orders:0", KernelTables.txnVersion(root, "fixture-app:orders:0").map(OptionalLong::of).orElse(OptionalLong.empty()), 46)
        .build();
    model.put(5L, upsert);
    model.put(9999L, Row.of(inserted));
    model.remove(11L);
    model.remove(7L);

    DeltaTable table = DeltaTable.forPath(HadoopStorage.withDefaults(), root);
    CommitResult result = table.newWriter(WriterOptions.defaults(strategy), List.of("id")).commit(changes);

    assertThat(result.counts().rowsDeleted()).isEqualTo(3);
    assertThat(new HashSet<>(KernelTables.readRows(root))).isEqualTo(new HashSet<>(model.values()));
    assertThat(KernelTables.readRows(root)).hasSize(model.size());
    assertThat(KernelTables.txnVersion(root, "fixture-app:orders:0")).contains(46L);
  }

  private static Row withName(Row row, String name) {
    Object[] values = row.toArray();
    values[1] = name;
    return Row.of(values);
  }
}
