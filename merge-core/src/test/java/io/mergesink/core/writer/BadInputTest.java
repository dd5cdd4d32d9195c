package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Change sets that cannot be applied, and tables MergeSink must not write, fail clearly and leave the table untouched. */
class BadInputTest {
  @TempDir Path dir;
  private DeltaTable table;
  private Row existing;

  @BeforeEach
  void createTable() throws Exception {
    table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(MergeModelTest.SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    existing = MergeModelTest.row(1, 1, new Random(1));
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS)).commit(ChangeSet.builder().upsert(existing).txn("a:t:0", TxnChange.first(1)).build());
  }

  @Test
  void rowWithWrongTypeIsRejectedNamingTheColumn() throws Exception {
    Row wrong = Row.of(2L, "x", "12.50", null, null);
    assertRejected(ChangeSet.builder().upsert(wrong).txn("a:t:0", TxnChange.from(1, 2)).build(), "column 'amount'");
  }

  @Test
  void decimalWithWrongScaleIsRejected() throws Exception {
    Row wrong = Row.of(2L, "x", new BigDecimal("1.5"), null, null);
    assertRejected(ChangeSet.builder().upsert(wrong).build(), "scale 1");
  }

  @Test
  void nullKeyIsRejected() throws Exception {
    Row wrong = Row.of(null, "x", null, null, null);
    assertRejected(ChangeSet.builder().upsert(wrong).build(), "non-nullable");
  }

  @Test
  void rowWithMissingColumnsIsRejected() throws Exception {
    assertRejected(ChangeSet.builder().upsert(Row.of(2L, "x")).build(), "2 values");
  }

  @Test
  void duplicateKeyInOneChangeSetIsRejected() throws Exception {
    Random random = new Random(2);
    ChangeSet changes = ChangeSet.builder().upsert(MergeModelTest.row(5, 1, random)).delete(Row.of(5L)).build();
    assertRejected(changes, "more than one change");
  }

  @Test
  void tableNeedingUnsupportedFeatureIsRefused() throws Exception {
    Path root = dir.resolve("constrained");
    Files.createDirectories(root.resolve("_delta_log"));
    String protocol = "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\"],"
        + "\"writerFeatures\":[\"deletionVectors\",\"checkConstraints\"]}}\n";
    String metadata = "{\"metaData\":{\"id\":\"x\",\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":"
        + "\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":false,\\\"metadata\\\":{}}]}\","
        + "\"partitionColumns\":[],\"configuration\":{\"delta.constraints.positive\":\"id > 0\"},\"createdTime\":1}}\n";
    Files.writeString(root.resolve("_delta_log/00000000000000000000.json"), protocol + metadata, StandardCharsets.UTF_8);
    DeltaTable constrained = DeltaTable.forPath(new LocalStorage(), root.toString());

    assertThatThrownBy(() -> constrained.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS), List.of("id")))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessage("table " + root + " uses writer features [checkConstraints], which MergeSink does not support; it was left untouched");
    assertThat(root.resolve("_delta_log").toFile().list()).containsExactly("00000000000000000000.json");
  }

  private void assertRejected(ChangeSet changes, String message) throws Exception {
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    assertThatThrownBy(() -> writer.commit(changes))
        .isInstanceOf(InvalidChangeSetException.class)
        .hasMessageContaining(table.root())
        .hasMessageContaining(message);
    assertThat(KernelTables.latestVersion(table.root())).isEqualTo(1L);
    assertThat(KernelTables.readRows(table.root())).containsExactly(existing);
    try (var files = Files.list(dir.resolve("t"))) {
      assertThat(files.filter(file -> file.getFileName().toString().endsWith(".parquet"))).hasSize(1);
    }
  }
}
